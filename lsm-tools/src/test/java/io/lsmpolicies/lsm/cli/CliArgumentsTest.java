package io.lsmpolicies.lsm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.lsm.cli.YcsbKeys.KeyOrder;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.TypeConversionException;

/** Argument handling of {@code bin/lsm}: exit status 2 with a clear message, keys, sizes and values. */
class CliArgumentsTest {
    @TempDir
    Path tmp;

    @Test
    void anUnknownPolicyExitsWithStatus2AndTheConfigurationMessage() {
        Path dir = tmp.resolve("db");
        CliRunner.Result r = CliRunner.run("load", "--dir", dir, "--records", 10, "--policy", "nosuch");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("unknown merge policy 'nosuch'").contains("binomial").contains("Usage:")
                .doesNotContain("Exception");
        assertThat(r.out()).isEmpty();
        assertThat(dir).doesNotExist();
    }

    @Test
    void aBadParameterValueExitsWithStatus2NamingTheParameter() {
        CliRunner.Result r = CliRunner.run("load", "--dir", tmp.resolve("db"), "--records", 10, "--policy",
                "binomial", "--param", "k=0");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("binomial").contains("k").contains("0").doesNotContain("Exception");

        CliRunner.Result missing = CliRunner.run("load", "--dir", tmp.resolve("db"), "--records", 10, "--policy",
                "binomial");
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("k");

        CliRunner.Result unknown = CliRunner.run("load", "--dir", tmp.resolve("db"), "--records", 10, "--policy",
                "binomial", "--param", "k=3", "--param", "zeta=1");
        assertThat(unknown.exit()).isEqualTo(2);
        assertThat(unknown.err()).contains("zeta");

        CliRunner.Result malformed = CliRunner.run("load", "--dir", tmp.resolve("db"), "--records", 10,
                "--param", "k");
        assertThat(malformed.exit()).isEqualTo(2);
        assertThat(malformed.err()).contains("--param 'k': expected name=value");
    }

    @Test
    void otherBadOptionsExitWithStatus2() {
        Path dir = tmp.resolve("db");
        assertThat(CliRunner.run("load", "--dir", dir, "--records", 10, "--memtable-size", "4XB").err())
                .contains("'4XB' is not a size");
        assertThat(CliRunner.run("load", "--dir", dir, "--records", 10, "--memtable-size", "1KB").err())
                .contains("memtableBytes");
        assertThat(CliRunner.run("load", "--dir", dir, "--records", 10, "--update-fraction", "1.5").err())
                .contains("--update-fraction must be in [0, 1]");
        assertThat(CliRunner.run("load", "--dir", dir, "--records", 10, "--device", "tape").err())
                .contains("unknown device profile 'tape'");
        assertThat(CliRunner.run("load", "--dir", dir, "--records", 10, "--value-size", "1MB").err())
                .contains("--value-size 1048576 exceeds the store's limit");
        assertThat(CliRunner.run("load", "--dir", dir, "--records", 10, "--wal", "maybe").exit()).isEqualTo(2);
        assertThat(CliRunner.run("load", "--dir", dir, "--records", 10, "--key-order", "sorted").exit()).isEqualTo(2);
        assertThat(CliRunner.run().exit()).isEqualTo(2);
        assertThat(dir).doesNotExist();
    }

    @Test
    void readingCommandsRefuseADirectoryWithoutAStoreAndCreateNothing() {
        Path dir = tmp.resolve("nothing-here");
        for (Object[] args : new Object[][] {{"get", "--dir", dir, "--key", "a"}, {"scan", "--dir", dir},
                {"stats", "--dir", dir}}) {
            CliRunner.Result r = CliRunner.run(args);
            assertThat(r.exit()).as("%s", args[0]).isEqualTo(2);
            assertThat(r.err()).contains("holds no store");
        }
        assertThat(dir).doesNotExist();
        CliRunner.Result verify = CliRunner.run("verify", "--dir", dir);
        assertThat(verify.exit()).isEqualTo(1);
        assertThat(verify.json().get("problems").get(0).asText()).startsWith("no store");
        assertThat(dir).doesNotExist();
    }

    @Test
    void sizesTakeBinaryUnits() {
        assertThat(ByteSize.parse("4MB")).isEqualTo(4L << 20);
        assertThat(ByteSize.parse("512KB")).isEqualTo(512L << 10);
        assertThat(ByteSize.parse("64kb")).isEqualTo(64L << 10);
        assertThat(ByteSize.parse("1GB")).isEqualTo(1L << 30);
        assertThat(ByteSize.parse("2MiB")).isEqualTo(2L << 20);
        assertThat(ByteSize.parse("3k")).isEqualTo(3L << 10);
        assertThat(ByteSize.parse("123")).isEqualTo(123);
        assertThat(ByteSize.parse("123B")).isEqualTo(123);
        assertThatThrownBy(() -> ByteSize.parse("4XB")).isInstanceOf(TypeConversionException.class)
                .hasMessageContaining("'4XB' is not a size");
        assertThatThrownBy(() -> ByteSize.parse("-1")).isInstanceOf(TypeConversionException.class);
        assertThatThrownBy(() -> ByteSize.parse("99999999999999GB")).hasMessageContaining("too large");
    }

    @Test
    void hashedKeysAreYcsbs() {
        // Expected values computed with an independent implementation of YCSB's Utils.fnvhash64 (offset basis
        // 0xCBF29CE484222325, prime 1099511628211, the 8 bytes of the long lowest first, xor then multiply,
        // modulo 2^64, then abs of the signed result).
        assertThat(YcsbKeys.fnvhash64(0)).isEqualTo(6284781860667377211L);
        assertThat(YcsbKeys.fnvhash64(1)).isEqualTo(8517097267634966620L);
        assertThat(YcsbKeys.fnvhash64(2)).isEqualTo(1820151046732198393L);
        assertThat(YcsbKeys.fnvhash64(1000)).isEqualTo(5952875239596136740L);
        assertThat(YcsbKeys.name(0, KeyOrder.HASHED)).isEqualTo("user6284781860667377211");
        assertThat(YcsbKeys.name(1, KeyOrder.HASHED)).isEqualTo("user8517097267634966620");
        assertThat(YcsbKeys.name(42, KeyOrder.ORDERED)).isEqualTo("user42");
    }

    @Test
    void hashOfRecordZeroByHand() {
        // FNV-1a of eight zero bytes: each step xors 0 (no change) and multiplies by the prime.
        long h = 0xCBF29CE484222325L;
        for (int i = 0; i < 8; i++) {
            h *= 1099511628211L;
        }
        assertThat(YcsbKeys.fnvhash64(0)).isEqualTo(Math.abs(h));
        // Record 1: the first byte is 1, the seven others 0.
        long g = (0xCBF29CE484222325L ^ 1) * 1099511628211L;
        for (int i = 1; i < 8; i++) {
            g *= 1099511628211L;
        }
        assertThat(YcsbKeys.fnvhash64(1)).isEqualTo(Math.abs(g));
    }

    @Test
    void valuesAreDerivedFromSeedRecordAndVersion() {
        byte[] a = RecordValues.value(7, 100, 0, 64);
        assertThat(a).hasSize(64).isEqualTo(RecordValues.value(7, 100, 0, 64));
        assertThat(RecordValues.value(7, 101, 0, 64)).isNotEqualTo(a);
        assertThat(RecordValues.value(7, 100, 1, 64)).isNotEqualTo(a);
        assertThat(RecordValues.value(8, 100, 0, 64)).isNotEqualTo(a);
        assertThat(RecordValues.value(7, 100, 0, 16)).isEqualTo(java.util.Arrays.copyOf(a, 16));
        assertThat(RecordValues.value(7, 100, 0, 0)).isEmpty();
    }

    @Test
    void textShowsPrintableUtf8AsTextAndEverythingElseAsHex() {
        assertThat(Text.render("user1".getBytes())).isEqualTo("user1");
        assertThat(Text.render(new byte[] {0, 1, (byte) 0xff})).isEqualTo("0x0001ff");
        assertThat(Text.render("0xab".getBytes())).isEqualTo("0x30786162");
        assertThat(Text.parse("0x0001ff")).containsExactly(0, 1, 0xff);
        assertThat(Text.parse("0x30786162")).isEqualTo("0xab".getBytes());
        assertThat(Text.parse("0xzz")).isEqualTo("0xzz".getBytes());
    }
}
