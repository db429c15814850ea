package io.lsmpolicies.lsm.io;

/**
 * A storage device class to emulate: each I/O operation costs a fixed latency plus its bytes divided by the
 * bandwidth, and the device serves one operation at a time. Used to throttle real file I/O so that both
 * device classes can be benchmarked on one machine.
 *
 * @param name           profile name
 * @param opLatencyNanos fixed cost per operation (access time, seek), {@code >= 0}
 * @param bytesPerSecond sustained bandwidth, {@code > 0}
 */
public record DeviceProfile(String name, long opLatencyNanos, long bytesPerSecond) {
    /** An SSD-class device: 80 us per operation, 520 MB/s. */
    public static final DeviceProfile SSD = new DeviceProfile("ssd", 80_000, 520_000_000);
    /** An HDD-class device: 8.5 ms average seek, 150 MB/s. */
    public static final DeviceProfile HDD = new DeviceProfile("hdd", 8_500_000, 150_000_000);

    /**
     * Checks the profile.
     *
     * @param name           profile name
     * @param opLatencyNanos fixed cost per operation (access time, seek), {@code >= 0}
     * @param bytesPerSecond sustained bandwidth, {@code > 0}
     */
    public DeviceProfile {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a device profile needs a name");
        }
        if (opLatencyNanos < 0) {
            throw new IllegalArgumentException("device profile " + name + ": opLatencyNanos must be >= 0, was "
                    + opLatencyNanos);
        }
        if (bytesPerSecond <= 0) {
            throw new IllegalArgumentException("device profile " + name + ": bytesPerSecond must be > 0, was "
                    + bytesPerSecond);
        }
    }

    /**
     * Nanoseconds the device needs for one operation moving {@code bytes}.
     *
     * @param bytes the bytes the operation moves
     * @return the nanoseconds
     */
    public long costNanos(long bytes) {
        return opLatencyNanos + (long) Math.ceil(bytes * 1e9 / bytesPerSecond);
    }

    /**
     * The profile named {@code name}: {@code ssd}, {@code hdd}, or {@code none} (no throttling, null).
     *
     * @param name the profile's name
     * @return the profile, or null for {@code none}
     * @throws IllegalArgumentException listing the accepted names otherwise
     */
    public static DeviceProfile named(String name) {
        return switch (name) {
            case "ssd" -> SSD;
            case "hdd" -> HDD;
            case "none" -> null;
            default -> throw new IllegalArgumentException("unknown device profile '" + name
                    + "'; accepted: ssd, hdd, none");
        };
    }
}
