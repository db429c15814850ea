package io.lsmpolicies.ycsb.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/**
 * The same writes for every binding, and the key and value bytes they must leave in its store: every binding
 * stores {@link YcsbRecord#key} and {@link YcsbRecord#encode} of the record, so our engine, RocksDB and Hyracks hold
 * the same bytes for the same YCSB operations (an insert of all ten fields, an insert of three in another order,
 * and an update that replaces one field and adds another).
 */
public final class RecordBytesFixture {
    private RecordBytesFixture() {
    }

    /** Writes the records through {@code db}, then cleans it up (its store is closed if it was the last). */
    public static void write(DB db) throws Exception {
        assertThat(db.insert("usertable", "user1", fields10())).isEqualTo(Status.OK);
        assertThat(db.insert("usertable", "user2", firstThree())).isEqualTo(Status.OK);
        assertThat(db.update("usertable", "user2", update())).isEqualTo(Status.OK);
        db.cleanup();
    }

    /** The store keys and values {@link #write} leaves, by YCSB key. */
    public static Map<String, byte[][]> expected() {
        Map<String, byte[][]> out = new LinkedHashMap<>();
        out.put("user1", new byte[][] {YcsbRecord.key("user1"), YcsbRecord.encode(YcsbRecord.of("user1", fields10()))});
        out.put("user2", new byte[][] {YcsbRecord.key("user2"),
                YcsbRecord.encode(YcsbRecord.merge(YcsbRecord.of("user2", firstThree()), update()))});
        return out;
    }

    private static Map<String, ByteIterator> fields10() {
        Map<String, ByteIterator> m = new HashMap<>();
        for (int f = 0; f < 10; f++) {
            m.put("field" + f, new StringByteIterator("a-" + f));
        }
        return m;
    }

    private static Map<String, ByteIterator> firstThree() {
        return values("field3", "x", "field10", "y", "field1", "z");
    }

    private static Map<String, ByteIterator> update() {
        return values("field0", "u", "extra", "e");
    }

    private static Map<String, ByteIterator> values(String... fieldValue) {
        Map<String, ByteIterator> m = new HashMap<>();
        for (int i = 0; i < fieldValue.length; i += 2) {
            m.put(fieldValue[i], new StringByteIterator(fieldValue[i + 1]));
        }
        return m;
    }
}
