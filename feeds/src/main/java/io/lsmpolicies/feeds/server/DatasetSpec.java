package io.lsmpolicies.feeds.server;

import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.MergeOrder;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.spi.MergePolicy;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A {@code [dataset/<name>]} section.
 *
 * @param name             the dataset
 * @param primaryKey       its primary key fields, in key order
 * @param policyName       the merge policy's registry name ({@code prefix} if the section names none)
 * @param policyParameters the policy's parameters (numbers or strings), as the descriptor gave them
 * @param policyGiven      whether the section has a {@code merge-policy} key
 * @param mergeOrder       the {@code merge-order} key: when a flush the policy merges at once writes only the merged
 *                         table; null for the store's default for its policy ({@link StoreOptions#mergeOrder()})
 * @param line             the line of the section header
 */
public record DatasetSpec(String name, List<String> primaryKey, String policyName,
        Map<String, Object> policyParameters, boolean policyGiven, MergeOrder mergeOrder, int line) {
    public DatasetSpec {
        primaryKey = List.copyOf(primaryKey);
        policyParameters = Map.copyOf(policyParameters);
    }

    /** A new instance of the descriptor's policy (each partition needs its own: policies keep state). */
    public MergePolicy newPolicy() {
        return MergePolicies.create(policyName, policyParameters);
    }

    /**
     * The policy to open the partition stored in {@code dir} with: the descriptor's if it names one, else the one
     * the partition's store recorded, else {@code prefix} (a new partition).
     *
     * @throws IOException if the store's recorded settings cannot be read (a damaged {@code OPTIONS} file)
     */
    public MergePolicy policyFor(Path dir) throws IOException {
        if (policyGiven) {
            return newPolicy();
        }
        Optional<MergePolicy> recorded = LsmStore.storedOptions(dir).map(o -> MergePolicies.create(o.policy()));
        return recorded.orElseGet(this::newPolicy);
    }
}
