package io.lsmpolicies.merge.spi;

import java.util.List;

/** Defensive copies that skip lists already known to be immutable. */
final class ImmutableLists {
    private ImmutableLists() {
    }

    static <E> List<E> of(List<E> list) {
        if (list instanceof PersistentStack<E> stack) {
            return stack;
        }
        return List.copyOf(list);
    }
}
