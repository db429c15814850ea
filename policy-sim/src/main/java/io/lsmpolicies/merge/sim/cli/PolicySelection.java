package io.lsmpolicies.merge.sim.cli;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.PolicySpec;
import io.lsmpolicies.merge.sim.Simulator;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.ParameterSpec;
import io.lsmpolicies.merge.spi.PolicyConfigurationException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns the command line's {@code --policy} and {@code --param} values into policies. A value of
 * {@code --param} is {@code name=value} (given to every selected policy that declares {@code name}) or
 * {@code policy.name=value} (to that policy only); parameters inside {@code --policy name:p=v} win over both. A policy
 * that declares {@code read-cost} (e.g. {@code adaptive}) gets {@code --read-cost} unless one of these sets it.
 */
final class PolicySelection {
    private PolicySelection() {
    }

    static List<MergePolicy> resolve(List<String> policies, List<String> params) {
        return resolve(policies, params, Map.of());
    }

    /**
     * As {@link #resolve(List, List)}, with {@code fallbacks} (name to value) given to every selected policy that
     * declares the name, below everything else: how {@code --read-cost} reaches a policy's {@code read-cost}.
     */
    static List<MergePolicy> resolve(List<String> policies, List<String> params, Map<String, String> fallbacks) {
        List<PolicySpec> specs = new ArrayList<>();
        for (String text : policies) {
            specs.add(PolicySpec.parse(text));
        }
        Map<String, String> everyone = new LinkedHashMap<>();
        Map<String, Map<String, String>> perPolicy = new LinkedHashMap<>();
        for (String param : params) {
            int eq = param.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("--param '" + param + "': expected name=value or policy.name=value");
            }
            String key = param.substring(0, eq).trim();
            String value = param.substring(eq + 1).trim();
            int dot = key.indexOf('.');
            if (dot > 0) {
                perPolicy.computeIfAbsent(key.substring(0, dot), p -> new LinkedHashMap<>())
                        .put(key.substring(dot + 1), value);
            } else {
                everyone.put(key, value);
            }
        }
        Set<String> selectedNames = new HashSet<>();
        Set<String> used = new HashSet<>();
        List<MergePolicy> out = new ArrayList<>();
        for (PolicySpec spec : specs) {
            selectedNames.add(spec.name());
            Map<String, String> extra = new LinkedHashMap<>();
            Set<String> declared = new HashSet<>();
            for (ParameterSpec p : MergePolicies.factory(spec.name()).parameters()) {
                declared.add(p.name());
            }
            fallbacks.forEach((k, v) -> {
                if (declared.contains(k)) {
                    extra.put(k, v);
                }
            });
            everyone.forEach((k, v) -> {
                if (declared.contains(k)) {
                    extra.put(k, v);
                    used.add(k);
                }
            });
            extra.putAll(perPolicy.getOrDefault(spec.name(), Map.of()));
            MergePolicy policy = MergePolicies.create(spec.withDefaults(extra));
            Simulator.requireStack(policy);
            out.add(policy);
        }
        for (String policy : perPolicy.keySet()) {
            if (!selectedNames.contains(policy)) {
                throw new PolicyConfigurationException(policy, null, null,
                        "--param " + policy + ".*: policy '" + policy + "' is not selected with --policy");
            }
        }
        for (String k : everyone.keySet()) {
            if (!used.contains(k)) {
                throw new PolicyConfigurationException(String.join(",", selectedNames), k, everyone.get(k),
                        "--param " + k + "=" + everyone.get(k) + ": none of the selected policies ("
                                + String.join(", ", selectedNames) + ") has a parameter '" + k + "'");
            }
        }
        return out;
    }

    /**
     * A short label: the name and every required or non-default parameter, e.g. {@code binomial k=4} or
     * {@code prefix max-mergable-component-size=1000}.
     */
    static String label(MergePolicy policy) {
        StringBuilder b = new StringBuilder(policy.name());
        for (ParameterSpec p : MergePolicies.factory(policy.name()).parameters()) {
            Object value = policy.parameters().values().get(p.name());
            if (p.required() || !same(value, p.defaultValue())) {
                b.append(' ').append(p.name()).append('=').append(value);
            }
        }
        return b.toString();
    }

    private static boolean same(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y && a.getClass() != b.getClass()) {
            return x.doubleValue() == y.doubleValue();
        }
        return a.equals(b);
    }
}
