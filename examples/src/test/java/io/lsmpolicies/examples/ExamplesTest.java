package io.lsmpolicies.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.records.AdmValue;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The examples the docs show run and do what the docs say. */
class ExamplesTest {
    @Test
    void thePolicyMergesAsBinomialDoes() {
        List<SSTableInfo> stack = PolicyExample.run(100);
        assertThat(stack).isNotEmpty();
        assertThat(stack.stream().mapToLong(SSTableInfo::bytes).sum()).isEqualTo(100L << 20); // no data lost
        assertThat(stack.size()).as("binomial k=4 keeps at most k SSTables").isLessThanOrEqualTo(4);
        assertThat(stack.get(stack.size() - 1).minFlushIndex()).isEqualTo(1);
    }

    @Test
    void theEngineExampleScansWhatItWrote(@TempDir Path dir) throws Exception {
        assertThat(EngineExample.run(dir)).containsExactly("banana"); // apple was deleted in the batch
    }

    @Test
    void theFeedExampleStoresItsRecords(@TempDir Path dir) throws Exception {
        AdmValue.Obj rec = FeedExample.run(dir);
        assertThat(rec.get("YCSB_KEY")).isNotNull();
        assertThat(rec.get("field0")).isNotNull();
    }
}
