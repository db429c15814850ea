package io.lsmpolicies.feeds.server;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.spi.MergePolicy;
import java.util.List;
import java.util.Map;

/**
 * A {@code [dataset/<name>]} section.
 *
 * @param name             the dataset
 * @param primaryKey       its primary key fields, in key order
 * @param policyName       the merge policy's registry name
 * @param policyParameters the policy's parameters (numbers or strings), as the descriptor gave them
 * @param line             the line of the section header
 */
public record DatasetSpec(String name, List<String> primaryKey, String policyName,
        Map<String, Object> policyParameters, int line) {
    public DatasetSpec {
        primaryKey = List.copyOf(primaryKey);
        policyParameters = Map.copyOf(policyParameters);
    }

    /** A new policy instance (each partition needs its own: policies keep state). */
    public MergePolicy newPolicy() {
        return MergePolicies.create(policyName, policyParameters);
    }
}
