package io.lsmpolicies.feeds;

import io.lsmpolicies.lsm.LsmStore;
import java.util.List;
import java.util.Objects;

/**
 * Where a feed's records go: a store and the record fields that form its primary key (in key order). The feed
 * does not own the store: whoever opened it closes it, after stopping the feeds that write to it.
 */
public record Dataset(String name, LsmStore store, List<String> keyFields) {
    /** @throws IllegalArgumentException if the name is blank or the key fields are empty or blank */
    public Dataset {
        Objects.requireNonNull(store, "store");
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("dataset name must not be blank");
        }
        keyFields = new KeyEncoder(keyFields).fields();
    }

    public static Dataset of(String name, LsmStore store, String... keyFields) {
        return new Dataset(name, store, List.of(keyFields));
    }
}
