package io.lsmpolicies.lsm.cli;

import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.PolicySpec;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.PolicyConfigurationException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The {@code --policy} and {@code --param} options: {@code --policy binomial --param k=6} and
 * {@code --policy binomial:k=6} both name the policy {@code binomial:k=6} (a parameter inside {@code --policy}
 * wins over a {@code --param} of the same name). A bad name or value is a {@link ParameterException} carrying
 * the {@link PolicyConfigurationException}'s message (exit status 2, usage shown). Without {@code --policy}, a
 * store that exists is opened with the policy it recorded ({@link #storeDefault}).
 */
final class PolicyOptions {
    @Option(names = "--policy", paramLabel = "NAME[:P=V,...]",
            description = "Merge policy, optionally with parameters (see bin/lsm-sim --list).")
    String policy;

    @Option(names = "--param", paramLabel = "P=V", description = "A parameter of the policy; repeatable.")
    List<String> params = new ArrayList<>();

    /**
     * The policy a command that may write opens {@code dir} with when {@code --policy} is not given: the one the
     * store recorded (with every parameter), or {@link StoreOptions#DEFAULT_POLICY} for a new store or one that
     * recorded none.
     *
     * @throws java.io.UncheckedIOException if the store's {@code OPTIONS} file cannot be read or is damaged
     */
    static String storeDefault(Path dir) {
        try {
            return LsmStore.storedOptions(dir).map(o -> o.policy().toString()).orElse(StoreOptions.DEFAULT_POLICY);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether either option was given. */
    boolean given() {
        return policy != null || !params.isEmpty();
    }

    /**
     * The policy the options name. Without {@code --policy}: {@code defaultSpec} (e.g. {@code binomial:k=6}) if
     * no {@code --param} is given either, else the default's name with the given parameters only.
     *
     * @throws ParameterException if the specification is malformed, or names an unknown policy or a bad parameter
     */
    MergePolicy resolve(CommandLine commandLine, String defaultSpec) {
        try {
            PolicySpec spec;
            if (policy != null) {
                spec = PolicySpec.parse(policy);
            } else if (params.isEmpty()) {
                spec = PolicySpec.parse(defaultSpec);
            } else {
                spec = new PolicySpec(PolicySpec.parse(defaultSpec).name(), Map.of());
            }
            Map<String, String> extra = new LinkedHashMap<>();
            for (String param : params) {
                int eq = param.indexOf('=');
                if (eq <= 0) {
                    throw new ParameterException(commandLine, "--param '" + param + "': expected name=value, e.g. k=6");
                }
                if (extra.put(param.substring(0, eq).trim(), param.substring(eq + 1).trim()) != null) {
                    throw new ParameterException(commandLine, "--param " + param.substring(0, eq).trim()
                            + " is given twice");
                }
            }
            return MergePolicies.create(spec.withDefaults(extra));
        } catch (PolicyConfigurationException e) {
            throw new ParameterException(commandLine, e.getMessage(), e);
        }
    }
}
