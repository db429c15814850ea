package io.lsmpolicies.ycsb.rocksdb;

/**
 * Process-wide duties of the RocksDB peer, run once at JVM exit: close the databases still open (a client thread
 * that died never released its share), and, if a DB instance failed its {@code init()}, exit with the status the
 * system property {@value #EXIT_STATUS_PROPERTY} gives. YCSB's {@code Client} prints an init failure's stack
 * trace and goes on to exit with status 0; {@code bin/ycsb-rocksdb} sets the property to 2, as
 * {@code bin/ycsb-lsm} does (the same property), so that scripts see the failure. Thread-safe.
 */
final class RocksDbRuntime {
    /** System property: the exit status after a failed {@code init()} (unset: leave the status alone). */
    static final String EXIT_STATUS_PROPERTY = "ycsb.lsm.init-failure-exit-status";

    private static boolean hooked;
    private static volatile String firstInitFailure;

    private RocksDbRuntime() {
    }

    /** Installs the exit hook (once). */
    static synchronized void ensureExitHook() {
        if (!hooked) {
            Runtime.getRuntime().addShutdownHook(new Thread(RocksDbRuntime::atExit, "ycsb-rocksdb-exit"));
            hooked = true;
        }
    }

    /** Records a failed {@code init()}; the first message is repeated at exit. */
    static synchronized void initFailed(String message) {
        if (firstInitFailure == null) {
            firstInitFailure = message;
        }
        ensureExitHook();
    }

    private static void atExit() {
        SharedRocksDbs.closeAll();
        String failure = firstInitFailure;
        String status = System.getProperty(EXIT_STATUS_PROPERTY);
        if (failure != null && status != null) {
            int code;
            try {
                code = Integer.parseInt(status.trim());
            } catch (NumberFormatException e) {
                code = 2;
            }
            System.out.flush();
            System.err.println("ycsb-rocksdb: a DB instance failed to initialise: " + failure);
            System.err.flush();
            Runtime.getRuntime().halt(code);
        }
    }
}
