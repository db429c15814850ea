package io.lsmpolicies.merge.spi;

import java.util.AbstractList;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * An immutable singly linked list, index 0 being the top (newest). {@link #push} and {@link #pop} are O(1)
 * and share structure with the original, which is what lets the simulator hand a policy a fresh immutable
 * view after each of a million flushes without copying the whole stack. {@code get(i)} is O(i).
 *
 * @param <E> element type; {@code null} elements are rejected
 */
public final class PersistentStack<E> extends AbstractList<E> {
    private static final PersistentStack<Object> EMPTY = new PersistentStack<>(null, null, 0);

    private final E head;
    private final PersistentStack<E> tail;
    private final int size;

    private PersistentStack(E head, PersistentStack<E> tail, int size) {
        this.head = head;
        this.tail = tail;
        this.size = size;
    }

    /**
     * {@return the empty stack}
     *
     * @param <E> the element type
     */
    @SuppressWarnings("unchecked")
    public static <E> PersistentStack<E> empty() {
        return (PersistentStack<E>) EMPTY;
    }

    /**
     * {@return a new stack with {@code element} on top of this one}
     *
     * @param element the new top, not null
     */
    public PersistentStack<E> push(E element) {
        return new PersistentStack<>(Objects.requireNonNull(element, "element"), this, size + 1);
    }

    /** {@return the stack without its top element} REQUIRES: not empty. */
    public PersistentStack<E> pop() {
        if (size == 0) {
            throw new NoSuchElementException("pop of an empty stack");
        }
        return tail;
    }

    /** {@return the top element} REQUIRES: not empty. */
    public E peek() {
        if (size == 0) {
            throw new NoSuchElementException("peek of an empty stack");
        }
        return head;
    }

    @Override
    public E get(int index) {
        Objects.checkIndex(index, size);
        PersistentStack<E> node = this;
        for (int i = 0; i < index; i++) {
            node = node.tail;
        }
        return node.head;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public Iterator<E> iterator() {
        return new Iterator<>() {
            private PersistentStack<E> node = PersistentStack.this;

            @Override
            public boolean hasNext() {
                return node.size > 0;
            }

            @Override
            public E next() {
                if (node.size == 0) {
                    throw new NoSuchElementException();
                }
                E value = node.head;
                node = node.tail;
                return value;
            }
        };
    }

    @Override
    public void forEach(Consumer<? super E> action) {
        for (PersistentStack<E> node = this; node.size > 0; node = node.tail) {
            action.accept(node.head);
        }
    }
}
