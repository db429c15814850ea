package io.lsmpolicies.bench.grid;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The block-layer device classes of {@code bin/device-class} as the grid uses them: a cell whose device is emulated
 * at the block layer runs its YCSB phases inside one invocation of the script (so the load and the reads share
 * the class's file system), with the store's directory on that file system and every system meeting the same
 * throttled device and memory cap.
 *
 * @param script  {@code bin/device-class}
 * @param size    the file system's size in bytes
 * @param memory  the memory cap of the cell's processes in bytes (heap, JVM and page cache)
 * @param backing where the backing file is made, or null for the script's default
 */
record DeviceClass(Path script, long size, long memory, Path backing) {
    /** Page-cache and JVM budget added to the child's heap for the default memory cap. */
    static final long CACHE_BUDGET = 256L << 20;

    /**
     * Why {@code device} cannot be emulated at the block layer on this machine ({@code bin/device-class DEVICE
     * --check}'s message), or null if it can.
     */
    String unavailable(String device) throws IOException, InterruptedException {
        if (!Files.isExecutable(script)) {
            return script + " is missing or not executable";
        }
        Path err = Files.createTempFile("device-class", ".err");
        try {
            Process p = new ProcessBuilder(script.toString(), device, "--check")
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(err.toFile()).start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return script + " --check did not answer in 60 s";
            }
            return p.exitValue() == 0 ? null
                    : Files.readString(err, StandardCharsets.UTF_8).strip().replaceAll("\\s*\\n\\s*", " ");
        } finally {
            Files.deleteIfExists(err);
        }
    }

    /**
     * The command running {@code inner} inside {@code device}'s class with the class's file system mounted on
     * {@code mount} (absent or empty); the inner command finds {@code mount/data} as its {@code DEVICE_DIR}.
     */
    List<String> command(String device, Path mount, List<String> inner) {
        List<String> c = new ArrayList<>(List.of(script.toString(), device, "--size", Long.toString(size), "--memory",
                Long.toString(memory), "--mount", mount.toString()));
        if (backing != null) {
            c.addAll(List.of("--backing", backing.toString()));
        }
        c.add("--");
        c.addAll(inner);
        return c;
    }

    /** The directory the class's file system offers a cell mounted on {@code mount}. */
    static Path deviceDir(Path mount) {
        return mount.resolve("data");
    }

    /**
     * The default file system size for {@code records} 1 KB records: six times the data (the largest transient
     * space amplification of the grid's policies, with room for the file system), at least 1 GiB.
     */
    static long defaultSize(long records) {
        return Math.max(1L << 30, records * 1100 * 6);
    }

    /**
     * The default memory cap: the child JVM's heap ({@code -Xmx} among {@code javaOptions}, 1 GiB if absent) plus
     * {@link #CACHE_BUDGET}.
     */
    static long defaultMemory(List<String> javaOptions) {
        long heap = 1L << 30;
        for (String o : javaOptions) {
            if (o.startsWith("-Xmx")) {
                heap = io.lsmpolicies.lsm.ByteSizes.parse(o.substring(4)); // 512m, 1g, 1048576
            }
        }
        return heap + CACHE_BUDGET;
    }

    /** {@code s} quoted for a POSIX shell. */
    static String shellQuote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
