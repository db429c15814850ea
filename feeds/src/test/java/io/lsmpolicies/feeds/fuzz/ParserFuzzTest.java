package io.lsmpolicies.feeds.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.lsmpolicies.feeds.BadRecord;
import io.lsmpolicies.feeds.RecordFormat;
import io.lsmpolicies.feeds.RecordFramer;
import io.lsmpolicies.feeds.RecordSyntaxException;
import io.lsmpolicies.feeds.ValueCodec;
import io.lsmpolicies.feeds.server.ConfigException;
import io.lsmpolicies.feeds.server.DescriptorParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Fuzz targets for what the node server reads from outside (issue 9): the record framer, the ADM and JSON
 * parsers, the stored-value decoder and the cluster descriptor parser. Each input is accepted or refused with the
 * component's typed error; any other exception, a hang or an out-of-memory is a bug. The default build replays
 * the saved inputs under {@code src/test/resources/io/lsmpolicies/feeds/fuzz/ParserFuzzTestInputs/<target>/};
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
}
