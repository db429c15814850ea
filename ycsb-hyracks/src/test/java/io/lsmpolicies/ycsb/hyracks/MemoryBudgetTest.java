package io.lsmpolicies.ycsb.hyracks;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.ycsb.common.YcsbRecord;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The smallest memory component {@code hyracks.memtable.size} accepts ({@value HyracksConfig#MIN_MEMTABLE_PAGES}
 * pages) works, and one page less does not: with 2 pages the first insert never returns, which is why the setting
 * is validated (the budget below the minimum is built here by hand, past the validation).
 */
@Timeout(60)
class MemoryBudgetTest {
    @TempDir
    Path dir;

    private HyracksConfig config(Path d, int pages) throws Exception {
        HyracksConfig c = HyracksConfig.parse(Dbs.props(d));
        return new HyracksConfig(c.dir(), c.policy(), (long) pages * c.pageSize(), c.pageSize(), c.cacheBytes(),
                c.device(), c.deviceName(), c.traceFile(), c.schema());
    }

    @Test
    void threePagesHoldRecordsAndFlush() throws Exception {
        try (HyracksTree tree = HyracksTree.open(config(dir, HyracksConfig.MIN_MEMTABLE_PAGES));
                TreeSession s = tree.session()) {
            for (int i = 0; i < 50; i++) {
                s.upsert(YcsbRecord.key("user" + i), new byte[1000]);
            }
            tree.settle();
            assertThat(tree.trace().rows()).hasSizeGreaterThan(5);
            assertThat(s.get(YcsbRecord.key("user0"))).hasSize(1000);
        }
    }

    @Test
    void withTwoPagesTheFirstInsertNeverReturns() throws Exception {
        HyracksTree tree = HyracksTree.open(config(dir.resolve("two"), 2));
        CountDownLatch inserted = new CountDownLatch(1);
        Thread writer = new Thread(() -> {
            try (TreeSession s = tree.session()) {
                s.upsert(YcsbRecord.key("user0"), new byte[100]);
                inserted.countDown();
            } catch (Exception e) {
                // the index closed under it: what matters is that the insert did not complete
            }
        }, "two-page-writer");
        writer.setDaemon(true);
        writer.start();
        assertThat(inserted.await(3, TimeUnit.SECONDS)).as("the first insert returned").isFalse();
        tree.close(); // nothing was inserted, so nothing to flush; the stuck writer is a daemon thread
    }
}
