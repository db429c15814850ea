package io.lsmpolicies.ycsb;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.lsm.KeyValue;
import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreIterator;
import io.lsmpolicies.records.AdmValue;
import io.lsmpolicies.records.KeyEncoder;
import io.lsmpolicies.ycsb.common.YcsbClient;
import io.lsmpolicies.ycsb.common.YcsbRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** Checks what a YCSB run left in the stores, record by record. */
final class StoredRecords {
    private StoredRecords() {
    }

    /**
     * Asserts that every record in {@code stores} is stored as the feed stores it (key: the encoded YCSB_KEY;
     * value: YCSB_KEY then field0 .. field{fields-1}, each the binary deterministic value of YCSB's dataintegrity
     * mode), and returns their keys.
     */
    static Set<String> checkAll(List<LsmStore> stores, int fields, int fieldLength) throws IOException {
        Set<String> keys = new TreeSet<>();
        for (LsmStore store : stores) {
            try (StoreIterator it = store.scan(null, null)) {
                while (it.hasNext()) {
                    KeyValue kv = it.next();
                    AdmValue.Obj record = YcsbRecord.decode(kv.value());
                    List<String> names = new ArrayList<>(record.fields().keySet());
                    String key = ((AdmValue.Str) record.get(YcsbRecord.KEY_FIELD)).value();
                    assertThat(kv.key()).as("key of %s", key).isEqualTo(KeyEncoder.of(key));
                    assertThat(names).as("fields of %s", key).hasSize(fields + 1);
                    assertThat(names.get(0)).isEqualTo(YcsbRecord.KEY_FIELD);
                    for (int f = 0; f < fields; f++) {
                        assertThat(names.get(f + 1)).isEqualTo("field" + f);
                        byte[] value = ((AdmValue.Binary) record.get("field" + f)).bytes();
                        assertThat(new String(value, StandardCharsets.UTF_8)).as("%s field%d", key, f)
                                .isEqualTo(YcsbClient.deterministic(key, "field" + f, fieldLength));
                    }
                    assertThat(keys.add(key)).as("one record per key: %s", key).isTrue();
                }
            }
        }
        return keys;
    }
}
