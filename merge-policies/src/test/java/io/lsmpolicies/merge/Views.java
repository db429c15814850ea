package io.lsmpolicies.merge;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergeKind;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.OutputCut;
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

    /**
     * The input ids (newest first) of the one job {@code policy} asks for right after the flush that produced
     * {@code view}, or an empty list; checks that the job is a stack merge (real, level 0, one file, a reason).
     */
    public static List<Long> chosenAfterFlush(MergePolicy policy, TreeView view) {
        Decision d = policy.decide(view, policy.onFlush(policy.initialState(), view));
        assertThat(d.jobs()).hasSizeLessThanOrEqualTo(1);
        if (d.jobs().isEmpty()) {
            return List.of();
        }
        MergeJob job = d.jobs().get(0);
        assertThat(job.kind()).isEqualTo(MergeKind.REAL);
        assertThat(job.outputLevel()).isZero();
        assertThat(job.cut()).isEqualTo(OutputCut.SINGLE_FILE);
        assertThat(job.reason()).isNotBlank();
        return ids(job.inputs());
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
