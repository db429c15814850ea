package io.lsmpolicies.ycsb.hyracks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import site.ycsb.DBException;

/**
 * Every bad or missing property fails in {@code init()} with a message naming the property, the value and what is
 * accepted; the good ones configure what they say (defaults, AsterixDB parameter names for our policies).
 */
class PropertiesTest {
    @TempDir
    Path dir;

    static Stream<Arguments> badProperties() {
        return Stream.of(
                Arguments.of(new String[] {"hyracks.pagesize", "4KB"}, "unknown property hyracks.pagesize; known: "
                        + "hyracks.cache.size, hyracks.device, hyracks.dir, hyracks.memtable.size, hyracks.page-size, "
                        + "hyracks.policy, hyracks.policy.<parameter>, bench.trace.file"),
                Arguments.of(new String[] {"hyracks.policy", "leveled"}, "hyracks.policy: 'leveled' is not accepted; "
                        + "accepted: prefix (AsterixDB's own), or ours through the Hyracks adapter: adaptive, bigtable, "
                        + "binomial, constant, exploring, minlatency, tiered"),
                Arguments.of(new String[] {"hyracks.policy", "binomial:k=0"}, "hyracks.policy (binomial:k=0): "
                        + "policy 'binomial': parameter 'k' = 0 is out of range"),
                Arguments.of(new String[] {"hyracks.policy", "binomial:k", }, "hyracks.policy: policy 'binomial': "
                        + "expected param=value, got 'k'"),
                Arguments.of(new String[] {"hyracks.policy", "tiered:size-ratio=1"}, "hyracks.policy "
                        + "(tiered:size-ratio=1): policy 'tiered': parameter 'size-ratio' = 1 is out of range"),
                Arguments.of(new String[] {"hyracks.policy", "binomial:k=4", "hyracks.policy.k", "3"},
                        "hyracks.policy.k: parameter 'k' is also given in hyracks.policy=binomial:k=4; give it once"),
                Arguments.of(new String[] {"hyracks.policy.max-tolerance-component-count", "1"},
                        "hyracks.policy (prefix:max-tolerance-component-count=1): max-tolerance-component-count = '1' "
                        + "is not accepted; accepted: an integer in [2, 1000000]"),
                Arguments.of(new String[] {"hyracks.policy", "prefix:max-mergable-component-size=big"},
                        "max-mergable-component-size = 'big' is not accepted; accepted: a size of at least 1 byte"),
                Arguments.of(new String[] {"hyracks.policy", "prefix", "hyracks.policy.size-ratio", "2"},
                        "AsterixDB's prefix policy has no parameter 'size-ratio'; its parameters: "
                        + "max-mergable-component-size (bytes, or KB/MB/GB; default 1GB), "
                        + "max-tolerance-component-count (integer in [2, 1000000]; default 5)"),
                Arguments.of(new String[] {"hyracks.memtable.size", "8KB"}, "hyracks.memtable.size: '8KB' is not "
                        + "accepted; accepted: 3 pages of hyracks.page-size (12288 bytes with 4096-byte pages) to 1GB"),
                Arguments.of(new String[] {"hyracks.memtable.size", "4MB", "hyracks.page-size", "2MB"},
                        "hyracks.page-size: '2MB' is not accepted; accepted: a power of two from 1KB to 1MB"),
                Arguments.of(new String[] {"hyracks.page-size", "3000"},
                        "hyracks.page-size: '3000' is not accepted; accepted: a power of two from 1KB to 1MB"),
                Arguments.of(new String[] {"hyracks.page-size", "lots"}, "hyracks.page-size: 'lots' is not a size"),
                Arguments.of(new String[] {"hyracks.cache.size", "64KB"}, "hyracks.cache.size: '64KB' is not "
                        + "accepted; accepted: at least 128 pages of hyracks.page-size (524288 bytes"),
                Arguments.of(new String[] {"hyracks.device", "nvme"},
                        "hyracks.device: 'nvme' is not a device profile; accepted: ssd, hdd, none"));
    }

    @ParameterizedTest
    @MethodSource("badProperties")
    void aBadPropertyIsNamedWithWhatIsAccepted(String[] keyValues, String message) {
        Properties p = Dbs.props(dir, keyValues);
        assertThatThrownBy(() -> Dbs.open(p)).isInstanceOf(DBException.class).hasMessageContaining(message);
        assertThat(SharedTrees.references(dir)).isZero();
    }

    @Test
    void theDirectoryIsRequired() {
        Properties p = new Properties();
        assertThatThrownBy(() -> Dbs.open(p)).isInstanceOf(DBException.class)
                .hasMessageContaining("hyracks.dir is required: the index directory");
    }

    @Test
    void defaultsAreAsterixDbsPrefixWithItsFormerDefaultsAnd4MbOf4KbPages() throws DBException {
        HyracksConfig c = HyracksConfig.parse(Dbs.props(dir));
        assertThat(c.policy().asterix()).isTrue();
        assertThat(c.policy().configuration()).isEqualTo(Map.of("max-mergable-component-size", "1073741824",
                "max-tolerance-component-count", "5"));
        assertThat(c.memtableBytes()).isEqualTo(4L << 20);
        assertThat(c.pageSize()).isEqualTo(4096);
        assertThat(c.cacheBytes()).isEqualTo(32L << 20);
        assertThat(c.device()).isNull();
        assertThat(c.traceFile()).isNull();
        assertThat(c.policy().create().getClass().getName())
                .isEqualTo("org.apache.hyracks.storage.am.lsm.common.impls.PrefixMergePolicy");
    }

    @Test
    void ourPoliciesReachTheAdapterUnderAsterixDbsParameterNames() throws DBException {
        HyracksConfig c = HyracksConfig.parse(Dbs.props(dir, "hyracks.policy", "exploring:k=5",
                "hyracks.policy.lambda", "1.5", "hyracks.memtable.size", "1MB", "hyracks.page-size", "8KB",
                "hyracks.device", "ssd", "bench.trace.file", "t.csv"));
        assertThat(c.policy().asterix()).isFalse();
        assertThat(c.policy().configuration()).isEqualTo(Map.of("max-component-count", "5", "size-ratio", "1.5"));
        assertThat(c.policy().create()).isInstanceOf(io.lsmpolicies.merge.hyracks.HyracksMergePolicy.class);
        assertThat(((io.lsmpolicies.merge.hyracks.HyracksMergePolicy) c.policy().create()).policy().name())
                .isEqualTo("exploring");
        assertThat(c.memtablePages()).isEqualTo(128);
        assertThat(c.device().name()).isEqualTo("ssd");
        assertThat(c.traceFile()).isEqualTo(Path.of("t.csv"));
        assertThat(HyracksConfig.parse(Dbs.props(dir, "hyracks.policy", "binomial:k=4")).policy().configuration())
                .isEqualTo(Map.of("num-components", "4"));
    }

    @Test
    void prefixParametersAreAcceptedInBothForms() throws DBException {
        HyracksConfig c = HyracksConfig.parse(Dbs.props(dir, "hyracks.policy",
                "prefix:max-mergable-component-size=64MB", "hyracks.policy.max-tolerance-component-count", "3"));
        assertThat(c.policy().configuration()).isEqualTo(Map.of("max-mergable-component-size", "67108864",
                "max-tolerance-component-count", "3"));
    }
}
