package io.lsmpolicies.merge.spi;

/**
 * A policy's own state between decisions (e.g. the flush counter of Binomial and MinLatency): small,
 * immutable, and serialisable so that an engine can store it in its manifest and a restarted engine
 * continues the same schedule. {@link MergePolicy#decodeState} reads back what {@link #encode} wrote.
 */
public interface PolicyState {
    /** {@return a stable, versioned encoding of the state} */
    byte[] encode();
}
