package io.lsmpolicies.merge.sim;

import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.SortedRun;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.ArrayList;
import java.util.List;

/** Test helpers: run a policy on uniform flushes and read the stack after each flush, oldest first. */
public final class Schedules {
    private Schedules() {
    }

    /** Sizes (in flush units) oldest first after each of {@code n} unit flushes. */
    public static List<List<Long>> unitSchedule(MergePolicy policy, int n) {
        List<List<Long>> out = new ArrayList<>();
        new Simulator(policy, FlushSizeSources.constant(1), 0).run(n, step -> out.add(oldestFirst(step.view())));
        return out;
    }

    public static List<Long> oldestFirst(TreeView view) {
        List<Long> sizes = new ArrayList<>();
        for (SortedRun run : view.level0Runs()) {
            sizes.add(0, run.bytes());
        }
        return sizes;
    }

    /** Parses "[1] [1,1] [5]" into lists. */
    public static List<List<Long>> parse(String text) {
        List<List<Long>> out = new ArrayList<>();
        for (String group : text.trim().split("\\]\\s*")) {
            String inner = group.replace("[", "").trim();
            List<Long> sizes = new ArrayList<>();
            for (String s : inner.split(",")) {
                sizes.add(Long.parseLong(s.trim()));
            }
            out.add(sizes);
        }
        return out;
    }
}
