package io.lsmpolicies.merge.sim.leveled;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.spi.ParameterSpec;
import io.lsmpolicies.merge.spi.PolicyFactory;
import java.util.List;

/** Finds the file pickers a registered policy offers: the accepted names of its choice parameter. */
public final class PickerDiscovery {
    private PickerDiscovery() {
    }

    /**
     * The accepted names of parameter {@code parameter} of policy {@code policy}, in the order its help lists
     * them.
     *
     * @param policy    a registered policy's name
     * @param parameter one of its choice parameters
     * @return the names
     * @throws IllegalArgumentException if no such policy is registered, or it has no such choice parameter
     */
    public static List<String> discover(String policy, String parameter) {
        PolicyFactory factory = MergePolicies.factories().get(policy);
        if (factory == null) {
            throw new IllegalArgumentException("no policy '" + policy + "' is registered (known: "
                    + String.join(", ", MergePolicies.names()) + ")");
        }
        for (ParameterSpec spec : factory.parameters()) {
            if (spec.name().equals(parameter)) {
                if (spec.choices().isEmpty()) {
                    throw new IllegalArgumentException("policy '" + policy + "': parameter '" + parameter
                            + "' is a number, not a choice of pickers");
                }
                return spec.choices();
            }
        }
        throw new IllegalArgumentException("policy '" + policy + "' has no parameter '" + parameter + "'");
    }
}
