package io.lsmpolicies.merge.hyracks;

import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Our policy driven directly, without Hyracks, through the protocol the simulator uses ({@code onFlush} once
 * per flush, then {@code decide} until it asks for nothing, each merge applied at once), on a stack whose
 * component sizes are looked up by flush range: the sizes Hyracks reported, for the policies that decide on
 * sizes. What it answers after each flush is the component list the adapter must have produced.
 */
final class ReferenceRun {
    private final MergePolicy policy;
    private final Function<ComponentSequence, Long> sizeOf;
    private final List<SSTableInfo> newestFirst = new ArrayList<>();
    private PolicyState state;
    private long nextId;
    private long flushes;

    /** {@code sizeOf} answers the bytes of the component holding a flush range, or null if there was none. */
    ReferenceRun(MergePolicy policy, Function<ComponentSequence, Long> sizeOf) {
        this.policy = policy;
        this.sizeOf = sizeOf;
        this.state = policy.initialState();
    }

    /** One more flush and the merges the policy asks for; the components after it as flush ranges, oldest first. */
    List<String> flush() {
        flushes++;
        newestFirst.add(0, table(flushes, flushes));
        state = policy.onFlush(state, view());
        return settle();
    }

    /**
     * A merge of every component that the policy did not choose (AsterixDB's {@code COMPACT}, Hyracks'
     * {@code scheduleFullMerge}), then whatever the policy asks for once it is installed.
     */
    List<String> mergeAllElsewhere() {
        if (newestFirst.size() > 1) {
            newestFirst.clear();
            newestFirst.add(table(1, flushes));
        }
        return settle();
    }

    private List<String> settle() {
        while (true) {
            Decision decision = policy.decide(view(), state);
            state = decision.state();
            if (decision.jobs().isEmpty()) {
                return ranges();
            }
            for (MergeJob job : decision.jobs()) {
                apply(job);
            }
        }
    }

    private void apply(MergeJob job) {
        List<SSTableInfo> inputs = job.inputs();
        int at = newestFirst.indexOf(inputs.get(0));
        if (at < 0 || at + inputs.size() > newestFirst.size()
                || !newestFirst.subList(at, at + inputs.size()).equals(inputs)) {
            throw new AssertionError(policy.name() + " chose a non-contiguous merge after flush " + flushes);
        }
        long first = inputs.get(inputs.size() - 1).minFlushIndex();
        long last = inputs.get(0).maxFlushIndex();
        newestFirst.subList(at, at + inputs.size()).clear();
        newestFirst.add(at, table(first, last));
    }

    private SSTableInfo table(long firstFlush, long lastFlush) {
        ComponentSequence range = new ComponentSequence(firstFlush - 1, lastFlush - 1);
        Long bytes = sizeOf.apply(range);
        if (bytes == null) {
            throw new AssertionError("after flush " + flushes + ", " + policy.name() + " needs a component holding "
                    + "flushes " + firstFlush + "-" + lastFlush + ", but Hyracks never had one: the adapter ran "
                    + "a different merge");
        }
        return SSTableInfo.builder(nextId++).bytes(bytes).flushes(firstFlush, lastFlush)
                .sequences(firstFlush, lastFlush).build();
    }

    private TreeView view() {
        return TreeView.stackOf(newestFirst);
    }

    private List<String> ranges() {
        List<String> out = new ArrayList<>();
        for (SSTableInfo t : newestFirst) {
            out.add(0, t.minFlushIndex() + "-" + t.maxFlushIndex());
        }
        return out;
    }
}
