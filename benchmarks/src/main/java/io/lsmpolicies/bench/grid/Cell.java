package io.lsmpolicies.bench.grid;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.PolicySpec;
import io.lsmpolicies.merge.spi.PolicyLayout;
import java.util.Locale;

/**
 * One run of the grid: a system, a policy in that system's syntax, a device profile and how it is emulated.
 *
 * @param system    the system
 * @param policy    the policy, e.g. {@code binomial:k=6}, {@code leveled}, {@code prefix}
 * @param device    {@code none}, {@code ssd} or {@code hdd}
 * @param emulation {@link #NONE} for device {@code none}; otherwise {@link #ENGINE} (the system's own in-engine
 *                  profile) or {@link #BLOCK} (the class of {@code bin/device-class}, the same for every system)
 */
public record Cell(GridSystem system, String policy, String device, String emulation) {
    /** No device emulated: this machine's disk and page cache. */
    public static final String NONE = "none";
    /** The device emulated inside the engine (each system's own {@code device} property). */
    public static final String ENGINE = "engine";
    /** The device emulated at the block layer by {@code bin/device-class}: throttled loop device, memory cap. */
    public static final String BLOCK = "block";

    public Cell {
        if (!device.equals("none") && !device.equals("ssd") && !device.equals("hdd")) {
            throw new IllegalArgumentException("unknown device profile '" + device + "'; accepted: none, ssd, hdd");
        }
        if (device.equals("none") ? !emulation.equals(NONE) : !emulation.equals(ENGINE) && !emulation.equals(BLOCK)) {
            throw new IllegalArgumentException("device '" + device + "' cannot have emulation '" + emulation
                    + "'; accepted: none for device none, engine or block otherwise");
        }
        if (system == GridSystem.LSM || (system == GridSystem.HYRACKS && !policy.equals("prefix"))) {
            MergePolicies.parse(policy); // our policies are checked here, not in a child
        } else if (system == GridSystem.ROCKSDB && !policy.matches("(leveled|universal)(:size-ratio=\\d+)?")) {
            throw new IllegalArgumentException("RocksDB policy '" + policy
                    + "': accepted leveled or universal, optionally :size-ratio=N");
        }
    }

    /** A cell with the default emulation: none for device {@code none}, the in-engine profile otherwise. */
    public Cell(GridSystem system, String policy, String device) {
        this(system, policy, device, device.equals("none") ? NONE : ENGINE);
    }

    /** This cell with its device emulated by {@code emulation} (kept {@link #NONE} for device {@code none}). */
    public Cell withEmulation(String emulation) {
        return device.equals("none") ? this : new Cell(system, policy, device, emulation);
    }

    /**
     * A cell from {@code SYSTEM:POLICY}, e.g. {@code lsm:binomial:k=6}, {@code rocksdb:leveled}, {@code
     * hyracks:prefix}; a bare policy means {@code lsm}.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static Cell parse(String text, String device) {
        int colon = text.indexOf(':');
        String head = colon < 0 ? text : text.substring(0, colon);
        for (GridSystem s : GridSystem.values()) {
            if (s.label().equals(head)) {
                if (colon < 0) {
                    throw new IllegalArgumentException("'" + text + "' names a system but no policy");
                }
                return new Cell(s, text.substring(colon + 1), device);
            }
        }
        return new Cell(GridSystem.LSM, text, device);
    }

    /** The policy's family for the figures: {@code binomial}, {@code leveled}, {@code rocksdb-universal}, ... */
    public String family() {
        String name = policy.split(":", 2)[0];
        return system == GridSystem.LSM ? name : system.label() + "-" + name;
    }

    /**
     * The policy's depth or size-ratio parameter ({@code k}, {@code size-ratio}, ...), as the x of the paper's
     * series; NaN when it has none.
     */
    public double parameter() {
        if (system == GridSystem.ROCKSDB) {
            int i = policy.indexOf("size-ratio=");
            return i < 0 ? Double.NaN : Double.parseDouble(policy.substring(i + "size-ratio=".length()));
        }
        if (policy.equals("prefix")) {
            return Double.NaN;
        }
        PolicySpec spec = PolicySpec.parse(policy);
        for (String p : new String[] {"k", "size-ratio", "max-components"}) {
            Object v = spec.parameters().get(p);
            if (v != null) {
                return Double.parseDouble(v.toString());
            }
        }
        return Double.NaN;
    }

    /** Whether the simulator can run this cell's policy (our stack policies, on our store or Hyracks'). */
    public boolean simulatable() {
        if (system == GridSystem.ROCKSDB || policy.equals("prefix")) {
            return false;
        }
        return MergePolicies.factory(PolicySpec.parse(policy).name()).layout() == PolicyLayout.STACK;
    }

    /** The cell as one token: {@code system:policy@device}. */
    public String label() {
        return system.label() + ":" + policy + "@" + device;
    }

    /** A file-name-safe form of {@link #label()}. */
    public String fileName() {
        return label().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.=-]+", "_");
    }
}
