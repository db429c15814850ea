package io.lsmpolicies.bench.device;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/device-class} itself: the command runs inside the class (its directory on the loop file system, its
 * process in the class's cgroups), everything it made is gone afterwards (after success, failure and SIGTERM), it
 * refuses without root and without the controllers, writes the kernel flushes pay the class's bandwidth, reads on
 * {@code hdd} that reach the device each wait a seek and a rotation, and an {@code hdd} run of a random-read workload
 * over more data than the memory cap is slower than an {@code ssd} run. Runs where the machine allows it (root, loop devices, the
 * blkio/io and memory controllers: the script's own {@code --check}); elsewhere the tests are skipped with the
 * script's reason, except the refusal without root, which then runs directly as the unprivileged user.
 */
class DeviceClassTest {
    private static final Path SCRIPT = Path.of("..", "bin", "device-class").toAbsolutePath().normalize();
    private static final Path CGROUPS = Path.of("/sys/fs/cgroup");
    private static final Path V1_BLKIO = CGROUPS.resolve("blkio");
    private static final int REFUSED = 125;

    /** Why this machine cannot run the classes, or null if it can. */
    private static String unavailable;

    @TempDir
    Path tmp;

    @BeforeAll
    static void checkMachine() throws Exception {
        Run check = run(List.of(SCRIPT.toString(), "nvme", "--check", "--no-calibration"), null);
        unavailable = check.status == 0 ? null : check.stderr.strip();
    }

    private static void assumeMachine() {
        Assumptions.assumeTrue(unavailable == null,
                () -> "bin/device-class cannot run on this machine: " + unavailable);
    }

    private record Run(int status, String stdout, String stderr, long pid) {
    }

    private static Run run(List<String> command, Path dir) throws IOException, InterruptedException {
        Path out = Files.createTempFile("device-class", ".out");
        Path err = Files.createTempFile("device-class", ".err");
        try {
            Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                    .directory(dir == null ? null : dir.toFile()).start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroy();
                p.waitFor();
                throw new AssertionError("bin/device-class did not finish in 120 s: " + Files.readString(err));
            }
            return new Run(p.exitValue(), Files.readString(out), Files.readString(err), p.pid());
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** The script with a small file system whose backing file and mount point are under {@link #tmp}. */
    private List<String> deviceClass(String cls, String memory, String... command) {
        List<String> c = new ArrayList<>(List.of(SCRIPT.toString(), cls, "--size", "64M", "--memory", memory,
                "--no-calibration", "--backing", tmp.toString(), "--mount", tmp.resolve("mnt").toString(), "--"));
        c.addAll(List.of(command));
        return c;
    }

    /** Nothing of the run of {@code cls} by process {@code pid} is left: mount, loop device, backing file, groups. */
    private void assertCleanedUp(String cls, long pid) throws IOException {
        assertThat(Files.readString(Path.of("/proc/mounts"))).doesNotContain(tmp.toString());
        try (Stream<Path> loops = Files.list(Path.of("/sys/block"))) {
            for (Path loop : loops.filter(d -> d.getFileName().toString().startsWith("loop")).toList()) {
                Path backing = loop.resolve("loop").resolve("backing_file");
                if (Files.exists(backing)) {
                    assertThat(Files.readString(backing)).as(loop + " backing file").doesNotContain(tmp.toString());
                }
            }
        }
        try (Stream<Path> left = Files.list(tmp)) {
            assertThat(left.toList()).as("backing file and mount point").isEmpty();
        }
        // no rule in the v1 root blkio group for a loop device that is detached (it would throttle its next user)
        for (String file : List.of("read_bps", "write_bps", "read_iops", "write_iops")) {
            Path rules = V1_BLKIO.resolve("blkio.throttle." + file + "_device");
            if (Files.isReadable(rules)) {
                for (String rule : Files.readAllLines(rules)) {
                    Path dev = Path.of("/sys/dev/block", rule.split(" ")[0]);
                    if (rule.startsWith("7:") && Files.exists(dev)) {
                        assertThat(dev.resolve("loop").resolve("backing_file")).as(rules + ": " + rule).exists();
                    }
                }
            }
        }
        String group = "device-class-" + cls + "-" + pid;
        assertThat(CGROUPS.resolve(group)).doesNotExist();
        try (Stream<Path> hierarchies = Files.list(CGROUPS)) {
            for (Path h : hierarchies.filter(Files::isDirectory).toList()) {
                assertThat(h.resolve(group)).doesNotExist();
            }
        }
    }

    @Test
    void commandRunsInsideTheClassOnItsFileSystem() throws Exception {
        assumeMachine();
        Run r = run(deviceClass("ssd", "256M", "sh", "-c", "echo dir=$DEVICE_DIR class=$DEVICE_CLASS; "
                + "grep \" $(dirname \"$DEVICE_DIR\") \" /proc/mounts; cat /proc/self/cgroup; "
                + "echo device=$(mountpoint -d \"$(dirname \"$DEVICE_DIR\")\"); "
                + "sed 's/^/rule=/' " + V1_BLKIO.resolve("blkio.throttle.write_bps_device") + " 2>/dev/null"),
                null);

        assertThat(r.status).as(r.stderr).isZero();
        assertThat(r.stdout).contains("dir=" + tmp.resolve("mnt").resolve("data") + " class=ssd");
        assertThat(r.stdout).containsPattern("(?m)^/dev/loop\\d+ " + Pattern.quote(tmp.resolve("mnt").toString())
                + " ext4 ");
        // v2: the one 0:: line names the group; v1: the memory line does, and the command is in the root blkio
        // group, whose rule for the class's loop device caps everything written to it (writeback included)
        String group = "device-class-ssd-" + r.pid;
        if (Files.exists(CGROUPS.resolve("cgroup.controllers"))) {
            assertThat(r.stdout).contains("0::/" + group);
        } else {
            assertThat(r.stdout).containsPattern(":memory:/" + group).containsPattern("(?m):blkio:/$");
            Matcher device = Pattern.compile("(?m)^device=(\\d+:\\d+)$").matcher(r.stdout);
            assertThat(device.find()).as(r.stdout).isTrue();
            assertThat(r.stdout).contains("rule=" + device.group(1) + " 500000000");
        }
        assertCleanedUp("ssd", r.pid);
    }

    /**
     * The calibration comes first, measured beside the targets, also on the smallest file system accepted. (The
     * random reads' target on {@code hdd} is the disk model's for the calibration file's span of the disk.)
     */
    @Test
    void theCalibrationIsPrintedBesideTheTargetsFirst() throws Exception {
        assumeMachine();
        List<String> command = deviceClass("hdd", "256M", "true");
        command.remove("--no-calibration");

        Run r = run(command, null);

        assertThat(r.status).as(r.stderr).isZero();
        assertThat(r.stderr).containsPattern("sequential write \\+ fsync +\\d+ MB/s  \\(target 160 MB/s\\)")
                .containsPattern("sequential read \\(O_DIRECT\\) +\\d+ MB/s  \\(target 160 MB/s\\)")
                .containsPattern("random 4 KiB read \\(O_DIRECT\\) +\\d+ IOPS  \\(target \\d+ IOPS\\)");
        assertCleanedUp("hdd", r.pid);
    }

    @Test
    void failingCommandGivesItsStatusAndIsCleanedUp() throws Exception {
        assumeMachine();
        Run r = run(deviceClass("hdd", "256M", "sh", "-c", "touch \"$DEVICE_DIR/x\"; exit 7"), null);

        assertThat(r.status).as(r.stderr).isEqualTo(7);
        assertCleanedUp("hdd", r.pid);
    }

    @Test
    void sigtermStopsTheCommandAndCleansUp() throws Exception {
        assumeMachine();
        Process p = new ProcessBuilder(deviceClass("hdd", "256M", "sh", "-c", "echo ready $$; exec sleep 600"))
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String line;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
                StandardCharsets.UTF_8))) {
            line = out.readLine();
            assertThat(line).as("the command's first line").startsWith("ready ");
            p.destroy(); // SIGTERM to the script
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the script ends after SIGTERM").isTrue();
        }
        assertThat(p.exitValue()).isEqualTo(128 + 15);
        long sleeper = Long.parseLong(line.substring("ready ".length()).strip());
        assertThat(ProcessHandle.of(sleeper).map(ProcessHandle::isAlive)).as("the command").isNotEqualTo(
                java.util.Optional.of(true));
        assertCleanedUp("hdd", p.pid());
    }

    @Test
    void refusesWithoutRootNamingWhatIsMissing() throws Exception {
        List<String> command = new ArrayList<>();
        if (uid() == 0) {
            Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")),
                    "running as root and setpriv (to drop to nobody) is absent");
            command.addAll(List.of("/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"));
        }
        command.addAll(List.of(SCRIPT.toString(), "hdd", "--no-calibration", "--", "true"));

        Run r = run(command, Path.of("/"));

        assertThat(r.status).isEqualTo(REFUSED);
        assertThat(r.stderr).contains("cannot run the hdd class on this machine; missing:").contains("root");
    }

    /**
     * Without the controllers: in a private mount namespace with every cgroup file system unmounted (the host's
     * mounts are untouched), the script refuses with status 125, names the missing controllers and makes nothing.
     */
    @Test
    void refusesWithoutTheControllersNamingThem() throws Exception {
        assumeMachine();
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/unshare")), "unshare is absent");
        String unmountCgroups = "awk '$3 ~ /^cgroup/ {print $2}' /proc/mounts | sort -r | while read -r m; do "
                + "umount \"$m\" || exit 1; done && exec \"$@\"";
        List<String> command = new ArrayList<>(List.of("/usr/bin/unshare", "-m", "--propagation", "private", "sh",
                "-c", unmountCgroups, "sh"));
        command.addAll(deviceClass("hdd", "256M", "true"));

        Run r = run(command, null);

        assertThat(r.status).as(r.stderr).isEqualTo(REFUSED);
        assertThat(r.stderr).contains("cannot run the hdd class on this machine; missing:")
                .contains("blkio controller").contains("memory controller");
        assertCleanedUp("hdd", r.pid);
    }

    /**
     * Writes the kernel makes on the command's behalf pay the class's bandwidth too: 320 MiB written and fsynced
     * under a 64 MiB memory cap (reclaim hands most of the dirty pages to the kernel's flusher threads before the
     * fsync), then 320 MiB written and flushed with {@code syncfs} (the flusher threads write them), each take at
     * least half what the {@code ssd} class's 500 MB/s allows. With cgroup v1 the flusher threads' writes are
     * charged to the root blkio group, so a rule in the command's group let them through at the host's speed
     * (1.9-3.6 GB/s here). The bound is half, not the full rate: the block layer's throttle accounts in time slices
     * and can let more through than its rate: 550-570 MB/s with fsync and 490-510 MB/s with syncfs on a quiet
     * machine, 659 MB/s with syncfs while the build's other modules were tested beside it (a bound of 0.8 times the
     * rate, 625 MB/s, failed there). The backing file is on {@code /dev/shm} where there is one, so the host's disk cannot
     * make the class look slower than it is. A property of the emulation, not a timing of the engine: it bounds
     * the time from below only.
     */
    @Test
    void writesTheKernelFlushesPayTheClassBandwidth() throws Exception {
        assumeMachine();
        int mib = 320;
        Path shm = Path.of("/dev/shm");
        String nanos = "t0=$(date +%s%N); ";
        String took = "echo \"$1=$(( $(date +%s%N) - t0 ))\"; ";
        List<String> command = new ArrayList<>(List.of(SCRIPT.toString(), "ssd", "--size", "640M", "--memory",
                "64M", "--no-calibration", "--backing", (Files.isDirectory(shm) ? shm : tmp).toString(), "--", "sh",
                "-c", "set -e; cd \"$DEVICE_DIR\"; "
                        + "set -- fsync; " + nanos
                        + "dd if=/dev/zero of=a bs=1M count=" + mib + " conv=fsync status=none; " + took
                        + "rm a; sync -f .; "
                        + "set -- syncfs; " + nanos
                        + "dd if=/dev/zero of=b bs=1M count=" + mib + " status=none; sync -f b; " + took));
        Run r = run(command, null);
        assertThat(r.status).as(r.stderr).isZero();

        double least = 0.5 * mib * (1 << 20) / 500e6;
        for (String how : List.of("fsync", "syncfs")) {
            Matcher m = Pattern.compile("(?m)^" + how + "=(\\d+)$").matcher(r.stdout);
            assertThat(m.find()).as(r.stdout).isTrue();
            double seconds = Long.parseLong(m.group(1)) / 1e9;
            System.out.printf(java.util.Locale.ROOT, "DeviceClassTest: %d MiB written, then %s, in the ssd class: "
                    + "%.2f s (%.0f MB/s)%n", mib, how, seconds, mib * (1 << 20) / seconds / 1e6);
            assertThat(seconds).as("%d MiB then %s at 500 MB/s (%.0f MB/s)", mib, how,
                    mib * (1 << 20) / seconds / 1e6).isGreaterThanOrEqualTo(least);
        }
    }

    /**
     * The ordering the classes must give: the same random 4 KiB reads over a file four times the memory cap run
     * several times slower on {@code hdd} (a seek and a rotation per miss; 200 IOPS with {@code --hdd-throttle})
     * than on {@code ssd} (50,000 IOPS). The backing file is on {@code /dev/shm} where there is one, so the host's
     * disk (shared, and slower than the {@code ssd} class on a loaded machine) stays out of the comparison.
     * Measured here: hdd about 100 reads/s (270-285 with the throttle), ssd 4,900-31,000; checked at a factor of 3.
     */
    @Test
    void hddRandomReadsAreSlowerThanSsdWhenTheDataExceedsTheMemoryCap() throws Exception {
        assumeMachine();
        double hdd = randomReads("hdd", 200).perSecond;
        double ssd = randomReads("ssd", 200).perSecond;
        System.out.printf(java.util.Locale.ROOT, "DeviceClassTest: random 4 KiB reads, 192 MiB under a 64 MiB cap: "
                + "hdd %.0f/s, ssd %.0f/s%n", hdd, ssd);

        assertThat(hdd * 3).as("hdd %.0f reads/s, ssd %.0f reads/s", hdd, ssd).isLessThan(ssd);
    }

    /**
     * On {@code hdd} every read that reaches the device waits a seek and a rotation, as on a disk: the median of
     * random 4 KiB reads of a file three times the memory cap (most of them miss the page cache) is at least 3 ms
     * (measured 11 ms; the disk model's average for a miss here is about 12 ms). The block layer's throttle, which
     * the class was before, let most reads through at once and made one in twenty wait for its next 100 ms slice:
     * a median of 0.02-0.04 ms and a p99 of 100 ms. A lower bound on the emulation's time, which a loaded machine
     * cannot make fail. Where the model cannot run (no {@code /dev/fuse}), the test is skipped.
     */
    @Test
    void hddReadsThatReachTheDeviceEachWaitASeekAndARotation() throws Exception {
        assumeMachine();
        Assumptions.assumeTrue(Files.exists(Path.of("/dev/fuse")), "no /dev/fuse: the hdd class is the throttle");
        Reads hdd = randomReads("hdd", 100);
        System.out.printf(java.util.Locale.ROOT, "DeviceClassTest: hdd random 4 KiB reads, 192 MiB under a 64 MiB "
                + "cap: %.0f/s, median %.2f ms, p99 %.2f ms%n", hdd.perSecond, hdd.p50Millis, hdd.p99Millis);

        assertThat(hdd.p50Millis).as("median read on hdd, ms").isGreaterThanOrEqualTo(3.0);
        assertThat(hdd.stderr).contains("a 7,200 rpm disk model");
    }

    private record Reads(double perSecond, double p50Millis, double p99Millis, String stderr) {
    }

    private Reads randomReads(String cls, int count) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classes = Path.of("target", "test-classes").toAbsolutePath().toString();
        Path shm = Path.of("/dev/shm");
        List<String> command = new ArrayList<>(List.of(SCRIPT.toString(), cls, "--size", "256M", "--memory", "64M",
                "--no-calibration", "--backing", (Files.isDirectory(shm) ? shm : tmp).toString(), "--", "sh", "-c",
                "dd if=/dev/zero of=\"$DEVICE_DIR/data\" bs=1M count=192 conv=fsync status=none && exec \"$0\" "
                        + "-Xmx8m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xss256k -cp \"$1\" "
                        + RandomReads.class.getName() + " \"$DEVICE_DIR/data\" " + count, java, classes));
        Run r = run(command, null);
        assertThat(r.status).as(r.stderr).isZero();
        Matcher m = Pattern.compile("reads/s=([0-9.]+) p50-ms=([0-9.]+) p99-ms=([0-9.]+)").matcher(r.stdout);
        assertThat(m.find()).as(r.stdout).isTrue();
        return new Reads(Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2)),
                Double.parseDouble(m.group(3)), r.stderr);
    }

    private static long uid() throws IOException, InterruptedException {
        Run id = run(List.of("id", "-u"), null);
        return Long.parseLong(id.stdout.strip());
    }
}
