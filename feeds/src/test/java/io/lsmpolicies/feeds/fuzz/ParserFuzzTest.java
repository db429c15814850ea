package io.lsmpolicies.feeds.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.lsmpolicies.feeds.BadRecord;
import io.lsmpolicies.feeds.RecordFormat;
import io.lsmpolicies.feeds.RecordFramer;
import io.lsmpolicies.feeds.RecordSyntaxException;
import io.lsmpolicies.feeds.ValueCodec;
import io.lsmpolicies.feeds.server.ApiRequest;
import io.lsmpolicies.feeds.server.ApiRequestException;
import io.lsmpolicies.feeds.server.ConfigException;
import io.lsmpolicies.feeds.server.DescriptorParser;
import io.lsmpolicies.feeds.server.RequestParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Fuzz targets for what the node server reads from outside (issue 9): the record framer, the ADM and JSON
 * parsers, the stored-value decoder, the cluster descriptor parser and the HTTP API's request parser. Each input is
 * accepted or refused with the component's typed error; any other exception, a hang or an out-of-memory is a bug.
 * The default build replays the saved inputs under
 * {@code src/test/resources/io/lsmpolicies/feeds/fuzz/ParserFuzzTestInputs/<target>/};
 * {@code JAZZER_FUZZ=1 ./mvnw -pl feeds test -Dtest=ParserFuzzTest#<target>} fuzzes one target.
 */
class ParserFuzzTest {

    /** A byte stream cut into records: never throws, buffers at most the limit. */
    @FuzzTest(maxDuration = "30s")
    void framer(byte[] data) {
        RecordFramer f = new RecordFramer(256, new RecordFramer.Sink() {
            @Override
            public void onRecord(byte[] bytes, int length, long offset) {
                if (length > 256 || bytes[0] != '{' || bytes[length - 1] != '}') {
                    throw new AssertionError("bad record framed at " + offset);
                }
            }

            @Override
            public void onBadRecord(BadRecord bad) {
            }
        });
        for (int i = 0; i < data.length; i += 7) {
            f.feed(data, i, Math.min(7, data.length - i));
            if (f.bufferedBytes() > 256) {
                throw new AssertionError("buffered " + f.bufferedBytes() + " bytes past the limit");
            }
        }
        f.finish();
    }

    /** One framed record in the adm format; what parses must encode and decode back to itself. */
    @FuzzTest(maxDuration = "30s")
    void adm(byte[] data) {
        try {
            var record = RecordFormat.ADM.parse(data, 0, data.length);
            if (!ValueCodec.decode(ValueCodec.encode(record)).equals(record)) {
                throw new AssertionError("a parsed record does not round-trip through the stored encoding");
            }
        } catch (RecordSyntaxException expected) {
            // refused, with a position
        }
    }

    /** One framed record in the json format. */
    @FuzzTest(maxDuration = "30s")
    void json(byte[] data) {
        try {
            RecordFormat.JSON.parse(data, 0, data.length);
        } catch (RecordSyntaxException expected) {
            // refused, with a position
        }
    }

    /** A stored value (a damaged one must be refused, never misread as another type). */
    @FuzzTest(maxDuration = "30s")
    void storedValue(byte[] data) {
        try {
            ValueCodec.decode(data);
        } catch (IllegalArgumentException expected) {
            // refused, naming the offset
        }
    }

    /** A cluster descriptor file. */
    @FuzzTest(maxDuration = "30s")
    void descriptor(byte[] data) throws IOException {
        Path file = Files.createTempFile("fuzz", ".conf");
        try {
            Files.write(file, data);
            DescriptorParser.parse(file);
        } catch (ConfigException expected) {
            // refused, naming the line and the key
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static final String[] METHODS = {"GET", "DELETE", "POST", "PUT"};
    private static final Map<String, List<String>> DATASETS = Map.of("usertable", List.of("YCSB_KEY"),
            "orders", List.of("customer", "id"));

    /**
     * An HTTP request: the first byte picks the method, the rest is the request target, one char per byte as
     * Netty's decoder gives it. Parsed or refused with a status of 400, 404 or 405; what parses is checked.
     */
    @FuzzTest(maxDuration = "60s")
    void httpRequest(byte[] data) {
        if (data.length == 0) {
            return;
        }
        String method = METHODS[(data[0] & 0xFF) % METHODS.length];
        String target = new String(data, 1, data.length - 1, StandardCharsets.ISO_8859_1);
        ApiRequest r;
        try {
            r = RequestParser.parse(method, target, DATASETS::get, Set.of("ycsb")::contains);
        } catch (ApiRequestException e) {
            if (e.status() != 400 && e.status() != 404 && e.status() != 405) {
                throw new AssertionError("status " + e.status() + " for " + target, e);
            }
            if (e.getMessage() == null || e.getMessage().isEmpty()) {
                throw new AssertionError("no message for " + target);
            }
            return;
        }
        if (r instanceof ApiRequest.Range range) {
            if (range.limit() < 1 || range.limit() > ApiRequest.MAX_LIMIT) {
                throw new AssertionError("limit " + range.limit() + " accepted from " + target);
            }
            nonEmpty(range.from(), target);
            nonEmpty(range.to(), target);
        } else if (r instanceof ApiRequest.Get g) {
            nonEmpty(g.key(), target);
        } else if (r instanceof ApiRequest.Delete d) {
            nonEmpty(d.key(), target);
        }
        if (r.changesState() == method.equals("GET")) {
            throw new AssertionError(method + " parsed as " + r);
        }
    }

    private static void nonEmpty(byte[] key, String target) {
        if (key != null && key.length == 0) {
            throw new AssertionError("an empty key from " + target + ": " + Arrays.toString(key));
        }
    }
}
