package io.lsmpolicies.lsm.log;

/**
 * How a log ended, once {@link LogReader#next()} has returned {@code null}.
 *
 * @param torn        true if the log ends with an incomplete or damaged final write, which was skipped
 * @param validEnd    offset just past the last intact record: where a recovered log may be cut
 * @param detail      what was found at {@code validEnd} ("clean end", or why the tail is torn)
 * @param wholeRecord true if the skipped tail is one complete record (its length intact, its end the file's end)
 *                    whose payload fails its checksum. A process crash cannot leave that (a log is written in
 *                    order and only grows by bytes written); damage after the record was written, or a device
 *                    that tore the write on power loss, can
 */
public record LogTail(boolean torn, long validEnd, String detail, boolean wholeRecord) {
    /** A tail that is not a whole damaged record. */
    public LogTail(boolean torn, long validEnd, String detail) {
        this(torn, validEnd, detail, false);
    }
}
