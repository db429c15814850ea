package io.lsmpolicies.lsm;

import io.lsmpolicies.lsm.manifest.ComponentSet;
import io.lsmpolicies.lsm.manifest.TableRecord;
import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.PolicySpec;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.PolicyLayout;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A store opened for writing with another merge policy (or other parameters) than the one it recorded: the
 * store continues under the new policy, records it in its {@code OPTIONS} file and its manifest, and
 * {@link LsmStore#policySwitch()} reports it so that a tool can say so.
 *
 * <p>A switch must leave a tree the new policy can run: a stack-based policy sees level 0 only, so it cannot
 * take over tables in deeper levels (a leveled layout), and only the {@code delayed} policy knows virtual tables,
 * so a store holding some cannot leave it. Such a switch is refused before anything is changed.
 *
 * @param from the policy the store recorded, with every parameter
 * @param to   the policy it is opened with, with every parameter
 */
public record PolicySwitch(PolicySpec from, PolicySpec to) {

    /** {@code switched the merge policy from binomial:k=4 to tiered:size-ratio=4}. */
    @Override
    public String toString() {
        return "switched the merge policy from " + from + " to " + to;
    }

    /**
     * The switch from {@code recorded} to {@code opening}, if they differ.
     *
     * @throws IllegalArgumentException saying why, if the store's tables cannot continue under {@code opening}
     */
    static Optional<PolicySwitch> check(Path dir, ComponentSet set, PolicySpec recorded, MergePolicy opening) {
        PolicySpec to = PolicySpec.of(opening);
        if (to.equals(recorded)) {
            return Optional.empty();
        }
        String refused = "the store in " + dir + " runs " + recorded + "; opening it with " + to + " is refused: ";
        List<List<TableRecord>> levels = set.levels();
        int deeper = 0;
        for (int level = 1; level < levels.size(); level++) {
            deeper += levels.get(level).size();
        }
        if (MergePolicies.factory(opening.name()).layout() == PolicyLayout.STACK && deeper > 0) {
            throw new IllegalArgumentException(refused + deeper + " of its tables are in levels below level 0 (a "
                    + "leveled layout), which a stack-based policy never merges; open it with a leveled policy");
        }
        if (!set.parents().isEmpty() && !opening.name().equals(recorded.name())) {
            throw new IllegalArgumentException(refused + "it holds virtual tables (delayed compaction), which only "
                    + recorded.name() + " materialises; open it with " + recorded.name());
        }
        return Optional.of(new PolicySwitch(recorded, to));
    }
}
