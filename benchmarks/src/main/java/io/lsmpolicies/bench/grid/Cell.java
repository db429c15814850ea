package io.lsmpolicies.bench.grid;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.PolicySpec;
import io.lsmpolicies.merge.spi.PolicyLayout;
import java.util.Locale;

/**
 * One run of the grid: a system, a policy in that system's syntax, and a device profile.
 *
 * @param system the system
 * @param policy the policy, e.g. {@code binomial:k=6}, {@code leveled}, {@code prefix}
 * @param device {@code none}, {@code ssd} or {@code hdd}
 */
public record Cell(GridSystem system, String policy, String device) {
    public Cell {
        if (!device.equals("none") && !device.equals("ssd") && !device.equals("hdd")) {
            throw new IllegalArgumentException("unknown device profile '" + device + "'; accepted: none, ssd, hdd");
        }
        if (system == GridSystem.LSM || (system == GridSystem.HYRACKS && !policy.equals("prefix"))) {
            MergePolicies.parse(policy); // our policies are checked here, not in a child
        } else if (system == GridSystem.ROCKSDB && !policy.matches("(leveled|universal)(:size-ratio=\\d+)?")) {
            throw new IllegalArgumentException("RocksDB policy '" + policy
                    + "': accepted leveled or universal, optionally :size-ratio=N");
        }
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
