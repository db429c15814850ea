package io.lsmpolicies.asterix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lsmpolicies.merge.hyracks.BinomialMergePolicyFactory;
import io.lsmpolicies.merge.hyracks.ComponentSequence;
import io.lsmpolicies.merge.hyracks.MinLatencyMergePolicyFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our policies inside a real, unpatched AsterixDB 0.9.8 (an embedded cluster of a stock CC and two NCs running
 * {@link LsmPoliciesNCApplication}, with {@link LsmPoliciesMetadataExtension} enabled by its {@code cc.conf}
 * section), fed through AsterixDB's own socket feed.
 *
 * <p>Three datasets take the same stream: {@code lsmpolicies-binomial} (k = 4), {@code lsmpolicies-minlatency}
 * (k = 3) and, for contrast, AsterixDB's own {@code prefix}. A small memory-component budget makes every
 * partition flush a few dozen times. The components on disk (their files, named by flush ranges) must be exactly
 * our policy's schedule for the number of flushes each partition made, before and after a restart, and after a
 * second batch ingested after the restart (the flush count continues from the files).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AsterixDbMergePolicyIntegrationTest {
    private static final String DV = "lsm";
    private static final long BATCH = 100_000;
    private static final Duration INGEST_TIMEOUT = Duration.ofSeconds(120);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Logger LOGGER = LogManager.getLogger();

    private EmbeddedAsterixDb db;
    private SqlppClient sqlpp;

    @BeforeAll
    void startCluster(@TempDir Path dir) throws Exception {
        // 1 MB of 8 KB pages per NC, shared by three datasets: about 25 flushes per partition per batch.
        db = EmbeddedAsterixDb.start(dir.resolve("cluster"), new ClusterSettings(2, 1, "8KB", "32MB", "1MB", true));
        sqlpp = db.sqlpp();
        sqlpp.run("CREATE DATAVERSE " + DV + "; USE " + DV + "; CREATE TYPE R AS OPEN { id: int64 };");
    }

    @AfterAll
    void stopCluster() throws Exception {
        if (db != null) {
            db.close();
        }
    }

    @Test
    void theExtensionFilesEveryOneOfOurPoliciesInTheMetadata() throws Exception {
        assertThat(ourCompactionPolicies()).isEqualTo(expectedRows());
    }

    /**
     * A value out of range fails the create-dataset job on the nodes with our message (AsterixDB checks only
     * names when compiling); an unknown parameter name or policy name fails compilation, the latter as it does
     * on a cluster without our metadata extension.
     */
    @Test
    void ddlMistakesAreRefusedWithMessagesNamingThem() throws Exception {
        assertThatThrownBy(() -> sqlpp.run("USE " + DV + "; CREATE DATASET bad(R) PRIMARY KEY id WITH "
                + mergePolicy("lsmpolicies-binomial", "\"num-components\": 0") + ";"))
                .hasMessageContaining("num-components").hasMessageContaining("out of range")
                .hasMessageContaining("[1, 1000000]");
        assertThatThrownBy(() -> sqlpp.run("USE " + DV + "; CREATE DATASET bad2(R) PRIMARY KEY id WITH "
                + mergePolicy("lsmpolicies-binomial", "\"size-ratio\": 1.2") + ";"))
                .hasMessageContaining("Invalid compaction policy property: size-ratio");
        assertThatThrownBy(() -> sqlpp.run("USE " + DV + "; CREATE DATASET bad3(R) PRIMARY KEY id WITH "
                + mergePolicy("lsmpolicies-nope", "\"num-components\": 4") + ";"))
                .hasMessageContaining("Unknown compaction policy: lsmpolicies-nope");
        assertThat(datasetsNamed("bad%")).as("nothing left behind").isEmpty();
    }

    @Test
    void aSocketFeedIngestsUnderOurScheduleWhichSurvivesARestart() throws Exception {
        int port1 = EmbeddedAsterixDb.freePort();
        int port2 = EmbeddedAsterixDb.freePort();
        sqlpp.run("USE " + DV + ";"
                + "CREATE DATASET binomial(R) PRIMARY KEY id WITH "
                + mergePolicy("lsmpolicies-binomial", "\"num-components\": 4") + ";"
                + "CREATE DATASET minlatency(R) PRIMARY KEY id WITH "
                + mergePolicy("lsmpolicies-minlatency", "\"num-components\": 3") + ";"
                + "CREATE DATASET prefix(R) PRIMARY KEY id WITH " + mergePolicy("prefix",
                        "\"max-mergable-component-size\": 1073741824, \"max-tolerance-component-count\": 5") + ";"
                + "CREATE FEED f WITH {\"adapter-name\": \"socket_adapter\", \"sockets\": \"" + db.nodes().get(0) + ":"
                + port1 + "," + db.nodes().get(1) + ":" + port2 + "\", \"address-type\": \"nc\", \"type-name\": \"R\","
                + " \"format\": \"adm\"};"
                + "CONNECT FEED f TO DATASET binomial; CONNECT FEED f TO DATASET minlatency;"
                + "CONNECT FEED f TO DATASET prefix; START FEED f;");
        assertThat(localResourceMergePolicy("binomial")).isEqualTo("lsmpolicies.BinomialMergePolicyFactory");
        assertThat(localResourceMergePolicy("minlatency")).isEqualTo("lsmpolicies.MinLatencyMergePolicyFactory");

        PolicySchedule binomial = new PolicySchedule(new BinomialMergePolicyFactory(), Map.of("num-components", "4"));
        PolicySchedule minLatency = new PolicySchedule(new MinLatencyMergePolicyFactory(),
                Map.of("num-components", "3"));

        // Batch 1: records 0 .. BATCH-1, half through each NC's socket.
        try (ComponentCountSampler sampler = new ComponentCountSampler(db, DV,
                List.of("binomial", "minlatency"))) {
            SocketFeedClient.sendInParallel(List.of(port1, port2), 0, BATCH, AsterixDbMergePolicyIntegrationTest::record,
                    Duration.ofSeconds(30));
            awaitCount(BATCH, "binomial", "minlatency", "prefix");
            Map<Integer, List<String>> b1 = awaitSchedule("binomial", binomial);
            awaitSchedule("minlatency", minLatency);
            LOGGER.info("batch 1: most disk components seen in a partition: binomial {}, minlatency {} ({} samples)",
                    sampler.max("binomial"), sampler.max("minlatency"), sampler.samples());
            assertThat(sampler.samples()).isGreaterThan(100);
            // A flush is installed before the merge it causes, so k + 1 is seen for a moment, never more.
            assertThat(sampler.max("binomial")).as("binomial k=4: most components seen").isBetween(4, 5);
            assertThat(sampler.max("minlatency")).as("minlatency k=3: most components seen").isBetween(3, 4);
            assertMergedSeveralTimes(b1);
            assertPrefixDiffersFrom(binomial);
        }

        // Restart: the data is there, and the files are still (after the flush at shutdown) our schedule.
        sqlpp.run("USE " + DV + "; STOP FEED f;");
        Map<Integer, Long> flushesBefore = lastFlushes("binomial");
        db.restart();
        assertThat(sqlpp.count(DV, "binomial")).isEqualTo(BATCH);
        assertThat(sqlpp.count(DV, "minlatency")).isEqualTo(BATCH);
        assertThat(sqlpp.count(DV, "prefix")).isEqualTo(BATCH);
        awaitSchedule("binomial", binomial);
        awaitSchedule("minlatency", minLatency);
        assertThat(ourCompactionPolicies()).as("no row inserted twice").isEqualTo(expectedRows());

        // Batch 2 after the restart: the flush count continues from the files, and the schedule with it.
        sqlpp.run("USE " + DV + "; START FEED f;");
        SocketFeedClient.sendInParallel(List.of(port1, port2), BATCH, 2 * BATCH,
                AsterixDbMergePolicyIntegrationTest::record, Duration.ofSeconds(30));
        awaitCount(2 * BATCH, "binomial", "minlatency", "prefix");
        awaitSchedule("binomial", binomial);
        awaitSchedule("minlatency", minLatency);
        Map<Integer, Long> flushesAfter = lastFlushes("binomial");
        flushesBefore.forEach((partition, before) ->
                assertThat(flushesAfter.get(partition)).as("partition %d flushes", partition).isGreaterThan(before + 5));
        assertThat(sqlpp.run("USE " + DV + "; SELECT VALUE COUNT(*) FROM binomial b WHERE b.id >= " + (2 * BATCH - 10)
                + ";").get(0).asLong()).isEqualTo(10);
        sqlpp.run("USE " + DV + "; STOP FEED f;");
    }

    /** An ADM record as a YCSB-style client streams it: no delimiter, {@code int64} key, about 130 bytes. */
    private static String record(long i) {
        return "{\"id\": int64(\"" + i + "\"), \"name\": \"user" + i + "\", \"payload\": \"" + "0123456789".repeat(8)
                + "\"}";
    }

    private static String mergePolicy(String name, String parameters) {
        return "{\"merge-policy\": {\"name\": \"" + name + "\", \"parameters\": {" + parameters + "}}}";
    }

    private static Map<String, String> expectedRows() {
        Map<String, String> rows = new LinkedHashMap<>();
        for (var f : LsmPolicyFactories.ALL) {
            rows.put(LsmPolicyFactories.policyName(f), f.getName());
        }
        return rows;
    }

    /** Our rows of {@code Metadata.CompactionPolicy}, name to class; fails if a name is listed twice. */
    private Map<String, String> ourCompactionPolicies() throws Exception {
        Map<String, String> byName = new LinkedHashMap<>();
        for (JsonNode row : sqlpp.run("SELECT VALUE p FROM Metadata.`CompactionPolicy` p"
                + " WHERE p.CompactionPolicy LIKE 'lsmpolicies-%';")) {
            assertThat(byName.put(row.get("CompactionPolicy").asText(), row.get("Classname").asText()))
                    .as("row %s listed once", row).isNull();
        }
        return byName;
    }

    private List<String> datasetsNamed(String like) throws Exception {
        List<String> names = new ArrayList<>();
        sqlpp.run("SELECT VALUE d.DatasetName FROM Metadata.`Dataset` d WHERE d.DataverseName = '" + DV
                + "' AND d.DatasetName LIKE '" + like + "';").forEach(n -> names.add(n.asText()));
        return names;
    }

    /** The type id of the merge-policy factory in a partition's local resource of {@code dataset}'s index. */
    private String localResourceMergePolicy(String dataset) throws Exception {
        Path metadata = ComponentFiles.files(db.storage()).stream()
                .filter(p -> p.getFileName().toString().equals(".metadata")
                        && p.getParent().getFileName().toString().equals(dataset)
                        && p.getParent().getParent().getParent().getFileName().toString().equals(dataset))
                .findFirst().orElseThrow(() -> new AssertionError("no local resource for " + dataset));
        return JSON.readTree(metadata.toFile()).at("/resource/resource/mergePolicyFactory/@type").asText();
    }

    private void awaitCount(long expected, String... datasets) throws Exception {
        long deadline = System.nanoTime() + INGEST_TIMEOUT.toNanos();
        for (String dataset : datasets) {
            long count;
            while ((count = sqlpp.count(DV, dataset)) < expected && System.nanoTime() < deadline) {
                Thread.sleep(250);
            }
            assertThat(count).as("records in %s", dataset).isEqualTo(expected);
        }
    }

    /**
     * Waits until every partition of {@code dataset} holds exactly {@code schedule}'s components for the flushes
     * it made (merges run in the background, so the last ones may still be running when the records are
     * counted), and returns them.
     */
    private Map<Integer, List<String>> awaitSchedule(String dataset, PolicySchedule schedule) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            Map<Integer, List<String>> actual = new LinkedHashMap<>();
            Map<Integer, List<String>> expected = new LinkedHashMap<>();
            for (var e : ComponentFiles.of(db.storage(), DV, dataset).entrySet()) {
                List<ComponentSequence> components = e.getValue();
                actual.put(e.getKey(), ComponentFiles.flushRanges(components));
                expected.put(e.getKey(), components.isEmpty() ? List.of()
                        : schedule.after(components.get(components.size() - 1).lastFlush()));
            }
            if ((actual.equals(expected) && actual.size() == db.nodes().size()) || System.nanoTime() > deadline) {
                LOGGER.info("{}: flush ranges by partition {}; our schedule {}", dataset, actual, expected);
                assertThat(actual).as("%s: components (flush ranges) of each partition", dataset)
                        .hasSize(db.nodes().size()).isEqualTo(expected);
                return actual;
            }
            Thread.sleep(200);
        }
    }

    /** Every partition flushed well beyond k and holds merged components: the policy had merges to choose. */
    private static void assertMergedSeveralTimes(Map<Integer, List<String>> ranges) {
        ranges.forEach((partition, components) -> {
            assertThat(components).as("partition %d", partition).anyMatch(r -> r.contains("-"));
            String newest = components.get(components.size() - 1);
            assertThat(Long.parseLong(newest.substring(newest.indexOf('-') + 1))).as("partition %d flushes",
                    partition).isGreaterThan(12);
        });
    }

    /**
     * AsterixDB's own prefix policy, given the same stream, leaves components that are not Binomial's schedule in
     * some partition: the files above are our policy's doing, not the stream's.
     */
    private void assertPrefixDiffersFrom(PolicySchedule binomial) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        Map<Integer, List<ComponentSequence>> prefix;
        while (!(prefix = ComponentFiles.of(db.storage(), DV, "prefix")).values().stream()
                .allMatch(ComponentFiles::settled) && System.nanoTime() < deadline) {
            Thread.sleep(200); // a merge of prefix's is being written
        }
        List<Boolean> sameAsBinomial = new ArrayList<>();
        for (List<ComponentSequence> components : prefix.values()) {
            sameAsBinomial.add(ComponentFiles.flushRanges(components)
                    .equals(binomial.after(components.get(components.size() - 1).lastFlush())));
        }
        LOGGER.info("prefix: flush ranges by partition {}", prefix.values().stream().map(ComponentFiles::flushRanges)
                .toList());
        assertThat(sameAsBinomial).as("prefix partitions laid out as Binomial would: %s", prefix)
                .hasSize(db.nodes().size()).contains(false);
    }

    private Map<Integer, Long> lastFlushes(String dataset) throws Exception {
        Map<Integer, Long> last = new LinkedHashMap<>();
        ComponentFiles.of(db.storage(), DV, dataset).forEach((p, c) -> last.put(p, c.get(c.size() - 1).lastFlush()));
        return last;
    }
}
