package io.lsmpolicies.feeds.server;

/**
 * One request of the HTTP API, as {@link RequestParser} reads it from its method and request target
 * ({@code docs/configuration.md}). Keys are already encoded; a range's limit is in [1, {@link #MAX_LIMIT}].
 *
 * <p>The target is origin-form ({@code /path?query}). The path is split at {@code /} (empty segments ignored),
 * then each segment is percent-decoded ({@code +} stays a plus); query parameters are split at {@code &} and
 * {@code =}, then decoded ({@code +} is a space). The decoded bytes must be UTF-8 and every {@code %} must start
 * two hex digits. A parameter may be given once.
 *
 * <p>A key is a JSON array of key values, one per key field in key order (strings, int64 integers, doubles; the
 * only way to name a composite key; a range bound may give a prefix of the fields), or, for a single-field
 * primary key, the value itself: {@code "..."} (quoted) a string, digits with an optional sign an integer,
 * anything else a string.
 */
public sealed interface ApiRequest {
    /** The default and the largest {@code limit} of a range. */
    int DEFAULT_LIMIT = 100;
    int MAX_LIMIT = 10_000;

    /** Whether the request changes state (and so needs the token, if one is configured). */
    default boolean changesState() {
        return false;
    }

    /** {@code GET /health}. */
    record Health() implements ApiRequest {
    }

    /** {@code GET /feeds/{feed}/stats}. */
    record FeedStats(String feed) implements ApiRequest {
    }

    /** {@code GET /datasets/{dataset}/count}. */
    record Count(String dataset) implements ApiRequest {
    }

    /** {@code GET /datasets/{dataset}/metrics}. */
    record Metrics(String dataset) implements ApiRequest {
    }

    /** {@code GET /datasets/{dataset}/events?limit=}: each partition's newest {@code limit} store events. */
    record Events(String dataset, int limit) implements ApiRequest {
    }

    /** {@code GET /datasets/{dataset}/records/{key}}; {@code keyText} is the decoded segment, for messages. */
    record Get(String dataset, byte[] key, String keyText) implements ApiRequest {
    }

    /** {@code GET /datasets/{dataset}/records?from=&to=&limit=}: keys in [from, to); a null bound is open. */
    record Range(String dataset, byte[] from, byte[] to, int limit) implements ApiRequest {
    }

    /** {@code DELETE /datasets/{dataset}/records/{key}}. */
    record Delete(String dataset, byte[] key, String keyText) implements ApiRequest {
        @Override
        public boolean changesState() {
            return true;
        }
    }

    /**
     * {@code POST /datasets/{dataset}/partitions/{partition}/reopen}: reopen a partition that is not open (see
     * {@link io.lsmpolicies.feeds.Partition#reopen}). The index is checked against the dataset by the server.
     */
    record Reopen(String dataset, int partition) implements ApiRequest {
        @Override
        public boolean changesState() {
            return true;
        }
    }

    /** {@code POST /datasets/{dataset}/flush}: flush the MemTable of every partition. */
    record Flush(String dataset) implements ApiRequest {
        @Override
        public boolean changesState() {
            return true;
        }
    }

}
