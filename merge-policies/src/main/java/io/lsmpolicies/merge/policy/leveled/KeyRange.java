package io.lsmpolicies.merge.policy.leveled;

import io.lsmpolicies.merge.spi.Key;
import io.lsmpolicies.merge.spi.SSTableInfo;
import java.util.Collection;

/**
 * An inclusive key range [{@code min}, {@code max}]. The range of a set of files is its hull, from the
 * smallest min key to the largest max key: the range the engine checks a job's output against.
 */
record KeyRange(Key min, Key max) {

    /** The range of one file. */
    static KeyRange of(SSTableInfo t) {
        return new KeyRange(t.minKey(), t.maxKey());
    }

    /** The hull of {@code tables}. REQUIRES: not empty. */
    static KeyRange of(Collection<SSTableInfo> tables) {
        KeyRange r = null;
        for (SSTableInfo t : tables) {
            r = r == null ? of(t) : r.union(of(t));
        }
        if (r == null) {
            throw new IllegalArgumentException("the range of no file");
        }
        return r;
    }

    /** The hull of this range and {@code o}. */
    KeyRange union(KeyRange o) {
        return new KeyRange(min.compareTo(o.min) <= 0 ? min : o.min, max.compareTo(o.max) >= 0 ? max : o.max);
    }

    boolean overlaps(SSTableInfo t) {
        return t.minKey().compareTo(max) <= 0 && min.compareTo(t.maxKey()) <= 0;
    }

    boolean contains(SSTableInfo t) {
        return min.compareTo(t.minKey()) <= 0 && t.maxKey().compareTo(max) <= 0;
    }
}
