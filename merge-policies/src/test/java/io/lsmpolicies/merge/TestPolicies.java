package io.lsmpolicies.merge;

import io.lsmpolicies.merge.spi.MergePolicy;
import java.util.LinkedHashMap;
import java.util.Map;

/** Test helper: a registered policy from its name and parameters given as alternating names and values. */
public final class TestPolicies {
    private TestPolicies() {
    }

    /** {@code policy("binomial", "k", 4)} is {@code MergePolicies.create("binomial", Map.of("k", 4))}. */
    public static MergePolicy policy(String name, Object... keyValues) {
        Map<String, Object> params = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            params.put((String) keyValues[i], keyValues[i + 1]);
        }
        return MergePolicies.create(name, params);
    }
}
