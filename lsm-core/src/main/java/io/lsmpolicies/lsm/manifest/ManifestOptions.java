package io.lsmpolicies.lsm.manifest;

/**
 * Settings of a {@link Manifest}, validated when built.
 *
 * @param rollBytes once the manifest file has at least this many bytes, the next append writes a new manifest
 *                  holding a snapshot instead of growing the old one; {@code >= 1} (default 4 MiB). Small values
 *                  roll often (each roll rewrites every table's record); large ones make recovery replay more.
 */
public record ManifestOptions(long rollBytes) {

    /** 4 MiB. */
    public static final long DEFAULT_ROLL_BYTES = 4L << 20;

    /** The defaults. */
    public static final ManifestOptions DEFAULTS = new ManifestOptions(DEFAULT_ROLL_BYTES);

    /**
     * Checks the setting.
     *
     * @param rollBytes once the manifest file has at least this many bytes, the next append writes a new manifest
     *                  holding a snapshot instead of growing the old one; {@code >= 1} (default 4 MiB). Small values
     *                  roll often (each roll rewrites every table's record); large ones make recovery replay more.
     * @throws IllegalArgumentException naming the setting and its range
     */
    public ManifestOptions {
        if (rollBytes < 1) {
            throw new IllegalArgumentException("manifest rollBytes must be >= 1, was " + rollBytes);
        }
    }
}
