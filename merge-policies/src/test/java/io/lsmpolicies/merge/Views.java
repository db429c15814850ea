package io.lsmpolicies.merge;

import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.ArrayList;
import java.util.List;

/**
 * Literal views for policy tests, RocksDB-picker style: {@code stack(10, 10, 40)} is a stack whose SSTables
 * have those sizes, listed <b>oldest first</b> (as the papers draw them); ids are 1, 2, 3, ... oldest first,
 * and each SSTable spans one flush (its id) unless built otherwise.
 */
public final class Views {
    private Views() {
    }

    /** SSTables with {@code sizesOldestFirst}, ids 1..n oldest first. */
    public static List<SSTableInfo> tables(long... sizesOldestFirst) {
        List<SSTableInfo> out = new ArrayList<>();
        for (int i = 0; i < sizesOldestFirst.length; i++) {
            out.add(SSTableInfo.builder(i + 1).bytes(sizesOldestFirst[i]).entries(sizesOldestFirst[i])
                    .flush(i + 1).build());
        }
        return out;
    }

    /** A stack view from SSTables listed oldest first. */
    public static TreeView stack(List<SSTableInfo> oldestFirst) {
        List<SSTableInfo> newestFirst = new ArrayList<>(oldestFirst);
        java.util.Collections.reverse(newestFirst);
        return TreeView.stackOf(newestFirst);
    }

    /** A stack view from sizes listed oldest first. */
    public static TreeView stack(long... sizesOldestFirst) {
        return stack(tables(sizesOldestFirst));
    }

    /** The same stack with the SSTables whose ids are given marked compacting. */
    public static TreeView compacting(List<SSTableInfo> oldestFirst, long... ids) {
        List<SSTableInfo> out = new ArrayList<>();
        for (SSTableInfo t : oldestFirst) {
            boolean marked = java.util.Arrays.stream(ids).anyMatch(id -> id == t.id());
            out.add(t.withCompacting(marked));
        }
        return stack(out);
    }

    /** Ids of a job's inputs, in the job's order. */
    public static List<Long> ids(List<SSTableInfo> tables) {
        List<Long> ids = new ArrayList<>();
        for (SSTableInfo t : tables) {
            ids.add(t.id());
        }
        return ids;
    }
}
