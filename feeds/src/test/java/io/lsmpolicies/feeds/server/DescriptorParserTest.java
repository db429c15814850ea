package io.lsmpolicies.feeds.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.lsmpolicies.feeds.BadRecordPolicy;
import io.lsmpolicies.feeds.RecordFormat;
import io.lsmpolicies.lsm.MergeOrder;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.lsm.wal.SyncMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DescriptorParserTest {
    @TempDir
    Path tmp;

    @BeforeEach
    void createTheMinimalIodevice() throws IOException {
        Files.createDirectories(tmp.resolve("io0"));
    }

    private Path write(String text) throws IOException {
        Path f = tmp.resolve("node.conf");
        Files.writeString(f, text, StandardCharsets.UTF_8);
        return f;
    }

    private String minimal() {
        return "[nc/nc1]\n" // line 1
                + "iodevices = " + tmp.resolve("io0") + "\n" // 2
                + "[dataset/t]\n" // 3
                + "primary-key = id\n"; // 4
    }

    private ConfigException error(String text) throws IOException {
        return catchThrowableOfType(ConfigException.class, () -> DescriptorParser.parse(write(text)));
    }

    @Test
    void theSampleDescriptorParses() throws Exception {
        String sample = Files.readString(Path.of("../conf/lsm-node.conf"), StandardCharsets.UTF_8);
        Path conf = Files.createDirectories(tmp.resolve("conf")).resolve("lsm-node.conf");
        Files.writeString(conf, sample, StandardCharsets.UTF_8);
        NodeDescriptor d = DescriptorParser.parse(conf, true);
        assertThat(d.nodeId()).isEqualTo("nc1");
        // relative to the descriptor's directory, as in the repository: conf/../data
        assertThat(d.iodevices()).containsExactly(tmp.resolve("data/iodevice0"), tmp.resolve("data/iodevice1"));
        assertThat(d.iodevicesToCreate()).isEqualTo(d.iodevices());
        assertThat(d.http().getPort()).isEqualTo(19002);
        assertThat(d.http().getAddress().isLoopbackAddress()).isTrue();
        assertThat(d.datasets()).singleElement().satisfies(ds -> {
            assertThat(ds.primaryKey()).containsExactly("YCSB_KEY");
            assertThat(ds.policyName()).isEqualTo("prefix");
            assertThat(ds.policyParameters()).containsEntry("max-mergable-component-size", 1073741824L);
            assertThat(ds.newPolicy()).isNotNull();
        });
        assertThat(d.feeds()).singleElement().satisfies(f -> {
            assertThat(f.dataset()).isEqualTo("usertable");
            assertThat(f.format()).isEqualTo(RecordFormat.ADM);
            assertThat(f.addresses()).singleElement().satisfies(a -> assertThat(a.getPort()).isEqualTo(10001));
            assertThat(f.badRecords()).isEqualTo(BadRecordPolicy.LOG_AND_CONTINUE);
        });
        StorageSettings s = d.storage();
        assertThat(s.walMode()).isEqualTo(SyncMode.SYNC);
        assertThat(s.bloomBitsPerKey()).isEqualTo(10);
        StoreOptions o = s.storeOptions(1, 2, d.datasets().get(0).newPolicy());
        assertThat(o.memtableBytes()).isEqualTo(32L << 20); // 64 MB over two stores
        assertThat(o.blockCacheBytes()).isEqualTo(64L << 20);
        assertThat(o.sstable().pageSize()).isEqualTo(4096);
    }

    @Test
    void defaultsApplyWhenSectionsAreAbsent() throws Exception {
        NodeDescriptor d = DescriptorParser.parse(write(minimal()));
        assertThat(d.http().getPort()).isEqualTo(DescriptorParser.DEFAULT_HTTP_PORT);
        assertThat(d.http().getAddress().getHostAddress()).isEqualTo("127.0.0.1");
        assertThat(d.datasets().get(0).policyName()).isEqualTo("prefix");
        StoreOptions o = d.storage().storeOptions(1, 1, d.datasets().get(0).newPolicy());
        assertThat(o.memtableBytes()).isEqualTo(StoreOptions.DEFAULT_MEMTABLE_BYTES);
        assertThat(o.writeBytesPerSecond()).isZero();
        assertThat(d.feeds()).isEmpty();
    }

    @Test
    void theReopenRetriesAreReadAndChecked() throws Exception {
        assertThat(DescriptorParser.parse(write(minimal())).reopen()).isEqualTo(ReopenPolicy.DEFAULT);
        ReopenPolicy r = DescriptorParser.parse(write(minimal() + "[nc]\npartition.reopen.delay = 500ms\n"
                + "partition.reopen.max-delay = 2s\n")).reopen();
        assertThat(r.delay()).isEqualTo(Duration.ofMillis(500));
        assertThat(r.maxDelay()).isEqualTo(Duration.ofSeconds(2));
        assertThat(List.of(r.wait(0), r.wait(1), r.wait(2), r.wait(10))).containsExactly(Duration.ofMillis(500),
                Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(2));
        assertThat(DescriptorParser.parse(write(minimal() + "[nc]\npartition.reopen.delay = off\n")).reopen()
                .automatic()).isFalse();
        assertThat(DescriptorParser.parse(write(minimal() + "[nc]\npartition.reopen.delay = 1m\n")).reopen()
                .maxDelay()).as("the default maximum, raised to a longer first delay").isEqualTo(Duration.ofMinutes(1));
        Map<String, String[]> cases = Map.of(
                "partition.reopen.delay = soon\n", new String[] {"partition.reopen.delay", "duration"},
                "partition.reopen.delay = 10ms\n", new String[] {"partition.reopen.delay", "between 100 ms"},
                "partition.reopen.delay = 5s\npartition.reopen.max-delay = 1s\n",
                new String[] {"partition.reopen.max-delay", "at least partition.reopen.delay"},
                "partition.reopen.delay = off\npartition.reopen.max-delay = 1s\n",
                new String[] {"partition.reopen.max-delay", "off"});
        for (Map.Entry<String, String[]> c : cases.entrySet()) {
            ConfigException e = error(minimal() + "[nc]\n" + c.getKey());
            assertThat(e).as(c.getKey()).isNotNull();
            assertThat(e.key()).as(c.getKey()).isEqualTo(c.getValue()[0]);
            assertThat(e.line()).as(c.getKey()).isGreaterThanOrEqualTo(6);
            assertThat(e.getMessage()).as(c.getKey()).contains(c.getValue()[1]);
        }
    }

    @Test
    void theWriteRateLimitIsPerPartitionAndSharedByItsDatasets() throws Exception {
        NodeDescriptor d = DescriptorParser.parse(write(minimal() + "[nc]\nstorage.write.rate.limit = 64MB\n"
                + "[dataset/u]\nprimary-key = id\n"));
        assertThat(d.storage().writeRateLimit()).isEqualTo(64L << 20);
        assertThat(d.storage().storeOptions(2, 1, d.datasets().get(0).newPolicy()).writeBytesPerSecond())
                .isEqualTo(32L << 20);
        ConfigException e = error(minimal() + "[nc]\nstorage.write.rate.limit = fast\n");
        assertThat(e.line()).isEqualTo(6);
        assertThat(e.key()).isEqualTo("storage.write.rate.limit");
    }

    @Test
    void feedOptionsAreRead() throws Exception {
        NodeDescriptor d = DescriptorParser.parse(write(minimal() + "[feed/f]\ndataset = t\nformat = json\n"
                + "addresses = 127.0.0.1:0, localhost:7001\nqueue-capacity = 8\nwriter-threads = 3\n"
                + "io-threads = 2\nmax-record-bytes = 64KB\ninsert-if-absent = true\nacks = true\n"
                + "bad-records = close\n"));
        FeedSpec f = d.feeds().get(0);
        assertThat(f.format()).isEqualTo(RecordFormat.JSON);
        assertThat(f.addresses()).hasSize(2);
        assertThat(List.of(f.queueCapacity(), f.writerThreads(), f.ioThreads(), f.maxRecordBytes()))
                .containsExactly(8, 3, 2, 65536);
        assertThat(f.insertIfAbsent()).isTrue();
        assertThat(f.acks()).isTrue();
        assertThat(f.badRecords()).isEqualTo(BadRecordPolicy.CLOSE_CONNECTION);
    }

    @Test
    void eachErrorNamesItsLineAndKey() throws Exception {
        Map<String, Object[]> cases = Map.ofEntries(
                Map.entry(minimal() + "[cluster]\n", new Object[] {5, "[cluster]", "unknown section"}),
                Map.entry(minimal() + "colour = red\n", new Object[] {5, "colour", "unknown key"}),
                Map.entry(minimal() + "[http]\nport = 70000\n", new Object[] {6, "port", "[0, 65535]"}),
                Map.entry(minimal() + "[http]\nport = x\n", new Object[] {6, "port", "not an integer"}),
                Map.entry(minimal() + "[nc]\nstorage.buffercache.pagesize = 3000\n",
                        new Object[] {6, "storage.buffercache.pagesize", "power of two"}),
                Map.entry(minimal() + "[nc]\nstorage.lsm.bloomfilter.falsepositiverate = 1.5\n",
                        new Object[] {6, "storage.lsm.bloomfilter.falsepositiverate", "(0, 1)"}),
                Map.entry(minimal() + "[nc]\nstorage.wal.mode = maybe\n",
                        new Object[] {6, "storage.wal.mode", "sync, async, off"}),
                Map.entry(minimal() + "merge-policy = {\"name\": \"lazy\"}\n",
                        new Object[] {5, "merge-policy", "lazy"}),
                Map.entry(minimal() + "merge-policy = {\"name\": \"prefix\", \"parameters\": {\"speed\": 3}}\n",
                        new Object[] {5, "merge-policy", "speed"}),
                Map.entry(minimal() + "merge-policy = {\"name\": \"prefix\", \"parameters\": "
                        + "{\"max-tolerance-component-count\": 0}}\n",
                        new Object[] {5, "merge-policy", "max-tolerance-component-count"}),
                Map.entry(minimal() + "merge-policy = prefix\n", new Object[] {5, "merge-policy", "JSON"}),
                Map.entry(minimal() + "merge-order = sooner\n", new Object[] {5, "merge-order",
                        "must be one of flush_then_merge, merge_memtable, merge_memtable_small, was 'sooner'"}),
                Map.entry(minimal() + "merge-policy = {\"name\": \"leveled\"}\nmerge-order = merge_memtable\n",
                        new Object[] {6, "merge-order", "FLUSH_THEN_MERGE"}),
                Map.entry(minimal() + "[feed/f]\ndataset = nope\naddresses = 127.0.0.1:1\n",
                        new Object[] {6, "dataset", "no [dataset/nope]"}),
                Map.entry(minimal() + "[feed/f]\ndataset = t\naddresses = 127.0.0.1\n",
                        new Object[] {7, "addresses", "host:port"}),
                Map.entry(minimal() + "[feed/f]\ndataset = t\naddresses = 127.0.0.1:1\nacks = yes\n",
                        new Object[] {8, "acks", "true or false"}),
                Map.entry(minimal() + "[feed/f]\ndataset = t\n", new Object[] {5, "addresses", "required"}),
                Map.entry("x = 1\n" + minimal(), new Object[] {1, "x", "outside any section"}),
                Map.entry(minimal() + "[nc]\nstorage.buffercache.sise = 1MB\n",
                        new Object[] {6, "storage.buffercache.sise", "did you mean storage.buffercache.size?"}),
                Map.entry(minimal() + "[nc]\ncolour = red\n", new Object[] {6, "colour", "unknown key in [nc]"}),
                Map.entry(minimal() + "[common]\nstorage.wal.mdoe = off\n",
                        new Object[] {6, "storage.wal.mdoe", "did you mean storage.wal.mode?"}),
                Map.entry(minimal() + "primary-key = again\n", new Object[] {5, "primary-key", "repeated"}));
        for (Map.Entry<String, Object[]> c : cases.entrySet()) {
            ConfigException e = error(c.getKey());
            assertThat(e).as(c.getKey()).isNotNull();
            assertThat(e.line()).as(e.getMessage()).isEqualTo(c.getValue()[0]);
            assertThat(e.key()).as(e.getMessage()).isEqualTo(c.getValue()[1]);
            assertThat(e.getMessage()).contains("node.conf:" + c.getValue()[0] + ": ")
                    .contains((String) c.getValue()[2]);
        }
    }

    /**
     * A dataset's {@code merge-order} reaches its stores' options (any case); without it a store takes its default
     * for the policy (for a stack policy, small merges folded into the flush).
     */
    @Test
    void aDatasetsMergeOrderReachesItsStores() throws Exception {
        NodeDescriptor given = DescriptorParser.parse(write(minimal()
                + "merge-policy = {\"name\": \"binomial\", \"parameters\": {\"k\": 4}}\n"
                + "merge-order = Flush_Then_Merge\n"));
        DatasetSpec d = given.datasets().get(0);
        assertThat(d.mergeOrder()).isEqualTo(MergeOrder.FLUSH_THEN_MERGE);
        assertThat(given.storage().storeOptions(1, 1, d.newPolicy(), d.mergeOrder()).mergeOrder())
                .isEqualTo(MergeOrder.FLUSH_THEN_MERGE);
        DatasetSpec unset = DescriptorParser.parse(write(minimal()
                + "merge-policy = {\"name\": \"binomial\", \"parameters\": {\"k\": 4}}\n")).datasets().get(0);
        assertThat(unset.mergeOrder()).isNull();
        assertThat(given.storage().storeOptions(1, 1, unset.newPolicy(), unset.mergeOrder()).mergeOrder())
                .isEqualTo(MergeOrder.MERGE_MEMTABLE_SMALL);
    }

    @Test
    void aMissingNodeSectionIsAFileLevelError() throws Exception {
        ConfigException e = error("[dataset/t]\nprimary-key = id\n");
        assertThat(e.line()).isZero();
        assertThat(e.getMessage()).contains("no [nc/<id>]");
    }

    @Test
    void anIodeviceThatCannotBeCreatedIsRefused() throws Exception {
        Path file = Files.writeString(tmp.resolve("plain-file"), "x");
        Path conf = write("# devices\n[nc/a]\niodevices = " + tmp.resolve("ok") + ", " + file.resolve("io") + "\n");
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> DescriptorParser.parse(conf, true));
        assertThat(e.line()).isEqualTo(3);
        assertThat(e.key()).isEqualTo("iodevices");
        assertThat(e.getMessage()).contains("cannot be created");
        assertThat(error("[nc/a]\niodevices = " + file + "\n").getMessage()).contains("is not a directory");
    }

    /** Found by fuzzing (docs/reliability.md): a line that is not UTF-8 was an unexplained MalformedInputException. */
    @Test
    void aLineThatIsNotUtf8IsAnErrorNamingTheLine() throws Exception {
        byte[] text = (minimal() + "[http]\nport = 1\u00ff\n").getBytes(StandardCharsets.ISO_8859_1);
        Path file = tmp.resolve("latin1.conf");
        Files.write(file, text);
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> DescriptorParser.parse(file));
        assertThat(e.line()).isEqualTo(6);
        assertThat(e.getMessage()).contains("not valid UTF-8");
    }

    /** Found by fuzzing (docs/reliability.md): a NUL byte in an iodevice path was an InvalidPathException. */
    @Test
    void anIodeviceThatIsNotAValidPathIsAnErrorNamingTheLine() throws Exception {
        ConfigException e = error("[nc/a]\niodevices = bad\u0000dir\n");
        assertThat(e.line()).isEqualTo(2);
        assertThat(e.key()).isEqualTo("iodevices");
        assertThat(e.getMessage()).contains("not a valid path");
    }

    @Test
    void aDatasetOrFeedNameCannotLeaveItsIodevice() throws Exception {
        for (String name : List.of("..", ".hidden", "a..b", "-x", "x".repeat(65), "a/b")) {
            ConfigException e = error(minimal() + "[dataset/" + name + "]\nprimary-key = id\n");
            assertThat(e.line()).as(name).isEqualTo(5);
            assertThat(e.getMessage()).as(name).contains("must be 1 to 64 letters");
        }
        assertThat(error(minimal() + "[feed/..]\ndataset = t\naddresses = 127.0.0.1:0\n").getMessage())
                .contains("must be 1 to 64 letters");
        DescriptorParser.parse(write(minimal() + "[dataset/orders.v2_x-1]\nprimary-key = id\n"));
    }

    @Test
    void aMissingIodeviceIsRefusedUnlessCreationIsAsked() throws Exception {
        Path missing = tmp.resolve("mnt/ssd9");
        Path conf = write("[nc/a]\niodevices = " + tmp.resolve("io0") + ", " + missing + "\n");
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> DescriptorParser.parse(conf));
        assertThat(e.line()).isEqualTo(2);
        assertThat(e.getMessage()).contains(missing + " does not exist").contains("--create-iodevices");
        assertThat(missing).doesNotExist();
        NodeDescriptor d = DescriptorParser.parse(conf, true);
        assertThat(d.iodevices()).containsExactly(tmp.resolve("io0"), missing);
        assertThat(d.iodevicesToCreate()).containsExactly(missing);
        assertThat(missing).as("parsing creates nothing; the node creates it when it starts").doesNotExist();
    }
}
