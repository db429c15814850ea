package io.lsmpolicies.ycsb.common;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Process-wide duties of the YCSB bindings (ours and the peers'), run once at JVM exit: close the stores still
 * open (a client thread that died never released its store), and, if a DB instance failed its {@code init()}, exit
 * with the status the system property {@value #EXIT_STATUS_PROPERTY} gives. YCSB's {@code Client} prints an init
 * failure's stack trace and goes on to exit with status 0; the {@code bin/ycsb-*} launchers set the property to 2
 * so that scripts see the failure. Thread-safe.
 */
public final class BindingRuntime {
    /** System property: the exit status after a failed {@code init()} (unset: leave the status alone). */
    public static final String EXIT_STATUS_PROPERTY = "ycsb.lsm.init-failure-exit-status";

    private static boolean hooked;
    private static final Set<Runnable> CLOSERS = new LinkedHashSet<>();
    private static volatile String firstInitFailure;

    private BindingRuntime() {
    }

    /**
     * Installs the exit hook (once) and has it run {@code closeAll} (once per distinct closer) at exit.
     *
     * @param closeAll closes every store this process holds
     */
    public static synchronized void atExit(Runnable closeAll) {
        CLOSERS.add(closeAll);
        ensureExitHook();
    }

    /**
     * Records a failed {@code init()}; the first message is repeated at exit.
     *
     * @param message what failed, naming the property or the store
     */
    public static synchronized void initFailed(String message) {
        if (firstInitFailure == null) {
            firstInitFailure = message;
        }
        ensureExitHook();
    }

    private static void ensureExitHook() {
        if (!hooked) {
            Runtime.getRuntime().addShutdownHook(new Thread(BindingRuntime::runAtExit, "ycsb-binding-exit"));
            hooked = true;
        }
    }

    private static void runAtExit() {
        Set<Runnable> closers;
        synchronized (BindingRuntime.class) {
            closers = Set.copyOf(CLOSERS);
        }
        closers.forEach(Runnable::run);
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
            System.err.println("ycsb: a DB instance failed to initialise: " + failure);
            System.err.flush();
            Runtime.getRuntime().halt(code);
        }
    }
}
