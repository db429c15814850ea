package io.lsmpolicies.lsm.log;

/**
 * How a log ended, once {@link LogReader#next()} has returned {@code null}.
 *
 * @param torn     true if the log ends with an incomplete or damaged final write, which was skipped
 * @param validEnd offset just past the last intact record: where a recovered log may be cut
 * @param detail   what was found at {@code validEnd} ("clean end", or why the tail is torn)
 */
public record LogTail(boolean torn, long validEnd, String detail) {
}
