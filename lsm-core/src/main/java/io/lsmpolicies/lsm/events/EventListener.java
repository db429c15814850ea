package io.lsmpolicies.lsm.events;

/**
 * Hears a store's events as they happen, on the thread that caused them (a writer, the flush thread, a merge
 * thread, the opening thread), often while the store's structure lock is held: it must be quick, must not block
 * and must not call back into the store. An exception it throws is logged and otherwise ignored.
 */
@FunctionalInterface
public interface EventListener {
    /**
     * Called for each event, on the thread that caused it; must not block.
     *
     * @param event the event
     */
    void onEvent(StoreEvent event);
}
