package io.lsmpolicies.ycsb.hyracks;

/**
 * Makes a failed {@code init()} visible to scripts: YCSB's {@code Client} prints the failure's stack trace and goes
 * on to exit with status 0. If a DB instance failed its {@code init()} and the system property
 * {@value #EXIT_STATUS_PROPERTY} is set (as {@code bin/ycsb-hyracks} and {@code bin/ycsb-lsm} set it to 2), the
 * process exits with that status, after repeating the first failure on stderr. Thread-safe.
 */
final class InitFailures {
    /** System property: the exit status after a failed {@code init()}; the one ycsb-binding reads too. */
    static final String EXIT_STATUS_PROPERTY = "ycsb.lsm.init-failure-exit-status";

    private static String first;
    private static boolean hooked;

    private InitFailures() {
    }

    /** Records a failed {@code init()}; the first message is repeated at exit. */
    static synchronized void failed(String message) {
        if (first == null) {
            first = message;
        }
        if (!hooked) {
            Runtime.getRuntime().addShutdownHook(new Thread(InitFailures::atExit, "ycsb-hyracks-init-failure"));
            hooked = true;
        }
    }

    private static void atExit() {
        String failure;
        synchronized (InitFailures.class) {
            failure = first;
        }
        String status = System.getProperty(EXIT_STATUS_PROPERTY);
        if (failure == null || status == null) {
            return;
        }
        int code;
        try {
            code = Integer.parseInt(status.trim());
        } catch (NumberFormatException e) {
            code = 2;
        }
        System.out.flush();
        System.err.println("ycsb-hyracks: a DB instance failed to initialise: " + failure);
        System.err.flush();
        Runtime.getRuntime().halt(code);
    }
}
