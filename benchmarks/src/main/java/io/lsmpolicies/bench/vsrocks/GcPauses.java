package io.lsmpolicies.bench.vsrocks;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Garbage-collection pauses of this JVM during one phase, from the JVM's GC notifications
 * ({@code com.sun.management.GarbageCollectionNotificationInfo}: one per collection, with its duration). A
 * collector whose name says it runs concurrently ({@code Concurrent}, {@code Cycles}: G1's concurrent cycle, ZGC's
 * cycles) is not counted: its duration is not a pause. For G1, the default, every counted collection is a
 * stop-the-world pause (young, mixed or full), and its duration is the pause.
 */
final class GcPauses implements NotificationListener {
    /** A pause above this many milliseconds is counted as long. */
    static final long LONG_PAUSE_MILLIS = 10;

    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private long pauses;
    private long longPauses;
    private long maxMillis;
    private long totalMillis;

    private GcPauses() {
    }

    /** Starts counting. */
    static GcPauses start() {
        GcPauses g = new GcPauses();
        for (GarbageCollectorMXBean bean : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (bean instanceof NotificationEmitter e) {
                e.addNotificationListener(g, null, null);
                g.emitters.add(e);
            }
        }
        return g;
    }

    @Override
    public synchronized void handleNotification(Notification n, Object handback) {
        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
            return;
        }
        GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from(
                (CompositeData) n.getUserData());
        String name = info.getGcName().toLowerCase(Locale.ROOT);
        if (name.contains("concurrent") || name.contains("cycles")) {
            return;
        }
        long millis = info.getGcInfo().getDuration();
        pauses++;
        totalMillis += millis;
        maxMillis = Math.max(maxMillis, millis);
        if (millis > LONG_PAUSE_MILLIS) {
            longPauses++;
        }
    }

    /**
     * @param pauses      collections counted
     * @param longPauses  those longer than {@link #LONG_PAUSE_MILLIS}
     * @param maxMillis   the longest
     * @param totalMillis their sum
     */
    record Counts(long pauses, long longPauses, long maxMillis, long totalMillis) {
    }

    /** Stops counting and returns the counts (notifications still in flight are not waited for). */
    Counts stop() {
        for (NotificationEmitter e : emitters) {
            try {
                e.removeNotificationListener(this);
            } catch (ListenerNotFoundException ignored) {
                // not registered: nothing to remove
            }
        }
        synchronized (this) {
            return new Counts(pauses, longPauses, maxMillis, totalMillis);
        }
    }
}
