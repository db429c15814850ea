package io.lsmpolicies.merge.policy.leveled;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** The configuration names of the primitives' enums, in one place. */
final class Choices {
    private Choices() {
    }

    /** The names of {@code values}, in declaration order. */
    static <E> List<String> names(E[] values, Function<E, String> name) {
        List<String> out = new ArrayList<>(values.length);
        for (E e : values) {
            out.add(name.apply(e));
        }
        return List.copyOf(out);
    }

    /** The value named {@code choice}. REQUIRES: {@code choice} was validated against {@link #names}. */
    static <E> E of(E[] values, String choice, Function<E, String> name) {
        for (E e : values) {
            if (name.apply(e).equals(choice)) {
                return e;
            }
        }
        throw new IllegalArgumentException("unknown choice '" + choice + "'; known: " + names(values, name));
    }
}
