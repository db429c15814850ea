package io.lsmpolicies.merge.policy;

import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.ParameterSpec;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.SortedRun;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.ArrayList;
import java.util.List;

/** What the stack-based policies share: the {@code k} parameter and reading the stack from a view. */
final class StackPolicies {
    /** Largest accepted k; far beyond any useful depth, small enough that O(k) work stays trivial. */
    static final int MAX_K = 1_000_000;

    /** The bounded-depth parameter shared by the stack-based policies. */
    static final ParameterSpec K = ParameterSpec.requiredInt("k", 1, MAX_K,
            "maximum number of SSTables kept after each flush and its merges (bounded depth)");

    private StackPolicies() {
    }

    /**
     * Level 0's runs, newest first: the stack's components. A stack-based policy sees exactly one level (or none,
     * before the first flush); anything else is a caller error named with the policy.
     */
    static List<SortedRun> stack(String policy, TreeView view) {
        if (view.levelCount() > 1) {
            throw new IllegalArgumentException("policy '" + policy + "' is stack-based: it needs a view with one "
                    + "level, got " + view.levelCount());
        }
        return view.level0Runs();
    }

    /**
     * The SSTables of the runs at newest-first positions {@code from..to} (both inclusive), as a merge's inputs: every
     * SSTable of each run.
     */
    static List<SSTableInfo> tables(List<SortedRun> stack, int from, int to) {
        List<SSTableInfo> out = new ArrayList<>(to - from + 1);
        int i = 0;
        for (SortedRun run : stack) {
            if (i > to) {
                break;
            }
            if (i >= from) {
                out.addAll(run.tables());
            }
            i++;
        }
        return out;
    }

    /** A job merging newest-first positions {@code from..to} (both inclusive) into one SSTable. */
    static MergeJob merge(List<SortedRun> stack, int from, int to, String reason) {
        return MergeJob.stackMerge(tables(stack, from, to), reason);
    }

    /** Sizes of the stack's SSTables, newest first. O(stack size). */
    static long[] sizes(List<SortedRun> stack) {
        long[] sizes = new long[stack.size()];
        int i = 0;
        for (SortedRun run : stack) {
            sizes[i++] = run.bytes();
        }
        return sizes;
    }
}
