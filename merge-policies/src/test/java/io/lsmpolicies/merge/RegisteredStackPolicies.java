package io.lsmpolicies.merge;

import io.lsmpolicies.merge.spi.PolicyLayout;
import java.util.List;

/**
 * Test helper: the registered stack policies, so that a test that runs "every stack policy" takes them from the
 * registry ({@code META-INF/services}) and covers a policy added there without being edited.
 */
public final class RegisteredStackPolicies {
    private RegisteredStackPolicies() {
    }

    /** Every registered stack policy's name, sorted. */
    public static List<String> names() {
        return MergePolicies.names(PolicyLayout.STACK);
    }

    /** Whether the registered policy {@code name} takes the parameter {@code parameter} (e.g. {@code k}). */
    public static boolean takes(String name, String parameter) {
        return MergePolicies.factory(name).parameters().stream().anyMatch(p -> p.name().equals(parameter));
    }

    /** The registered stack policies that take {@code parameter}, sorted. */
    public static List<String> taking(String parameter) {
        return names().stream().filter(n -> takes(n, parameter)).toList();
    }
}
