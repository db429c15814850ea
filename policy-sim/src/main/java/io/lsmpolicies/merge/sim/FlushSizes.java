package io.lsmpolicies.merge.sim;

/** A sequence of flush sizes in bytes, l_1, l_2, ...: each {@code >= 0}. */
public interface FlushSizes {
    /**
     * The size of the next flush.
     *
     * @return the size in bytes
     * @throws java.util.NoSuchElementException if a finite source (a trace) is exhausted
     */
    long next();

    /** {@return how many sizes remain, or {@code Long.MAX_VALUE} for an endless source} */
    long remaining();

    /** {@return the source in its text form, e.g. {@code uniform:1:10}} */
    String describe();
}
