package io.lsmpolicies.merge.hyracks;

import java.nio.file.Paths;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMDiskComponent;
import org.apache.hyracks.storage.am.lsm.common.impls.IndexComponentFileReference;

/**
 * The range of flush sequence numbers a Hyracks disk component holds, read from its file names.
 *
 * <p>Hyracks 0.3.8 numbers the flushes (and bulk loads) of each index 0, 1, 2, ... and names every file of
 * the component they create {@code <start>_<end>_<suffix>} with {@code start == end}; a merge names its
 * output {@code <start of the oldest input>_<end of the newest input>}. The numbers are per index, never
 * reused, and recovered from the files after a restart ({@code AbstractLSMIndexFileManager}), so a
 * component's range is exactly the flushes whose data it holds, whoever merged it. One flush that wrote
 * nothing still consumes a number (Hyracks adds no component for it), so a range may include such flushes.
 *
 * @param start first flush sequence number, {@code >= 0}
 * @param end   last flush sequence number, {@code >= start}
 */
public record ComponentSequence(long start, long end) {

    /**
     * Checks the range.
     *
     * @param start first flush sequence number
     * @param end   last flush sequence number
     * @throws IllegalArgumentException naming both unless {@code 0 <= start <= end}
     */
    public ComponentSequence {
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("component sequence needs 0 <= start <= end, was " + start + "_" + end);
        }
    }

    /**
     * Reads the range of {@code component} from the names of its files, which must all agree.
     *
     * @param component a Hyracks disk component
     * @return its range of flush sequence numbers
     * @throws IllegalStateException naming the files if a name is not {@code <start>_<end>_...} or names differ
     */
    public static ComponentSequence of(ILSMDiskComponent component) {
        Set<String> names = new TreeSet<>();
        for (String path : component.getLSMComponentPhysicalFiles()) {
            names.add(Paths.get(path).getFileName().toString());
        }
        if (names.isEmpty()) {
            throw new IllegalStateException("disk component " + component + " has no files to read its sequence from");
        }
        ComponentSequence found = null;
        for (String name : names) {
            ComponentSequence s = parse(name);
            if (found != null && !found.equals(s)) {
                throw new IllegalStateException("disk component files disagree on their flush sequence: " + names);
            }
            found = s;
        }
        return found;
    }

    /** Parses one file name, {@code <start>_<end>_<suffix>}. */
    static ComponentSequence parse(String fileName) {
        try {
            IndexComponentFileReference ref = IndexComponentFileReference.of(fileName);
            return new ComponentSequence(ref.getSequenceStart(), ref.getSequenceEnd());
        } catch (RuntimeException e) { // NumberFormatException, ArrayIndexOutOfBounds, or our range check
            throw new IllegalStateException("disk component file '" + fileName
                    + "' is not named <start>_<end>_<suffix> with flush sequence numbers", e);
        }
    }

    /** {@return the 1-based flush index of the first flush held ({@code start + 1}), as {@code SSTableInfo} counts} */
    public long firstFlush() {
        return start + 1;
    }

    /** {@return the 1-based flush index of the last flush held ({@code end + 1})} */
    public long lastFlush() {
        return end + 1;
    }
}
