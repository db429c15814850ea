package io.lsmpolicies.lsm;

import io.lsmpolicies.lsm.events.EventListener;
import io.lsmpolicies.lsm.events.EventLog;
import io.lsmpolicies.lsm.events.StoreEvent;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Where the store's parts report what they did: each {@link StoreEvent} is appended to the event log (none for a
 * store open read-only, which writes nothing) and handed to every registered listener. Thread-safe.
 */
final class StoreEvents {
    private static final Logger LOG = Logger.getLogger(StoreEvents.class.getName());

    private final EventLog log;
    private final List<EventListener> listeners = new CopyOnWriteArrayList<>();

    StoreEvents(EventLog log) {
        this.log = log;
    }

    void add(EventListener l) {
        listeners.add(l);
    }

    void remove(EventListener l) {
        listeners.remove(l);
    }

    void emit(StoreEvent e) {
        log.append(e);
        for (EventListener l : listeners) {
            try {
                l.onEvent(e);
            } catch (RuntimeException ex) {
                LOG.log(Level.WARNING, "an event listener failed on " + e, ex);
            }
        }
    }

    /** Events the log could not write. */
    long logFailures() {
        return log.failures();
    }

    void close() {
        log.close();
    }

    /** Microseconds since {@code startNanos}. */
    static long microsSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1000;
    }

    static long now() {
        return System.currentTimeMillis();
    }
}
