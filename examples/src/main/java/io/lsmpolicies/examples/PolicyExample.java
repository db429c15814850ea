package io.lsmpolicies.examples;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A merge policy driven by hand, as a platform embedding {@code merge-policies} drives it: the platform keeps the
 * stack of SSTables (disk components), shows it to the policy as a {@link TreeView} after every flush, and runs the
 * merges the policy returns. The README and {@code docs/policies.md} show regions of this file.
 */
public final class PolicyExample {
    private PolicyExample() {
    }

    /**
     * Flushes {@code flushes} SSTables of 1 MiB each under the binomial policy ({@code k = 4}) and merges as it asks.
     *
     * @return the SSTables left, newest first
     */
    public static List<SSTableInfo> run(int flushes) {
        // snippet:start create
        MergePolicy policy = MergePolicies.create("binomial", Map.of("k", 4));
        MergePolicy same = MergePolicies.parse("binomial:k=4");                 // the text form
        MergePolicy other = MergePolicies.parse("exploring:k=6,lambda=1.5");   // omitted parameters take defaults
        // snippet:end create
        if (!same.parameters().equals(policy.parameters()) || other.name().isEmpty()) {
            throw new AssertionError("the two forms must make the same policy");
        }
        // snippet:start drive
        PolicyState state = policy.initialState();
        List<SSTableInfo> stack = new ArrayList<>();   // the platform's SSTables, newest first
        long nextId = 1;
        for (long flush = 1; flush <= flushes; flush++) {
            // A flush installs a new SSTable on top of the stack; the view is what the policy sees of it.
            stack.add(0, SSTableInfo.builder(nextId++).bytes(1 << 20).entries(1000).flush(flush).build());
            TreeView view = TreeView.stackOf(stack);
            state = policy.onFlush(state, view);
            Decision d = policy.decide(view, state);          // ask again after each merge is installed, until none
            while (!d.jobs().isEmpty()) {
                for (MergeJob job : d.jobs()) {
                    nextId = merge(stack, job, nextId);       // the platform runs the merge and installs its output
                }
                state = d.state();                            // persist state.encode() with the platform's metadata
                view = TreeView.stackOf(stack);
                d = policy.decide(view, state);
            }
            state = d.state();
            boolean holdFlushes = policy.isMergeLagging(view, state); // writers wait for merges while true
        }
        // snippet:end drive
        return stack;
    }

    /** Replaces the job's inputs (adjacent in the stack) by one SSTable holding all their data. */
    private static long merge(List<SSTableInfo> stack, MergeJob job, long nextId) {
        int at = stack.indexOf(job.inputs().get(0));
        long bytes = 0;
        long entries = 0;
        long minFlush = Long.MAX_VALUE;
        long maxFlush = 0;
        for (SSTableInfo in : job.inputs()) {
            at = Math.min(at, stack.indexOf(in));
            bytes += in.bytes();
            entries += in.entries();
            minFlush = Math.min(minFlush, in.minFlushIndex());
            maxFlush = Math.max(maxFlush, in.maxFlushIndex());
        }
        stack.removeAll(job.inputs());
        stack.add(at, SSTableInfo.builder(nextId).bytes(bytes).entries(entries).flushes(minFlush, maxFlush).build());
        return nextId + 1;
    }

    /** Runs 100 flushes and prints the SSTables left. */
    public static void main(String[] args) {
        for (SSTableInfo t : run(100)) {
            System.out.println("SSTable " + t.id() + ": flushes " + t.minFlushIndex() + ".." + t.maxFlushIndex()
                    + ", " + t.bytes() + " bytes");
        }
    }
}
