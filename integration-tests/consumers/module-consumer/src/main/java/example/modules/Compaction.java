package example.modules;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.spi.MergePolicy;

/** What the platform does with the policies: make the one its configuration names. */
public final class Compaction {
    private Compaction() {
    }

    /** The policy {@code spec} names, e.g. {@code binomial:k=4}. */
    public static MergePolicy policy(String spec) {
        return MergePolicies.parse(spec);
    }
}
