package io.lsmpolicies.ycsb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.DB;
import site.ycsb.DBException;

/** Wrong or missing properties fail at init() with a DBException naming the property and what it accepts. */
@Timeout(60)
class PropertiesTest {
    @TempDir
    Path tmp;

    private DBException initFails(DB db, String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        db.setProperties(p);
        return catchThrowableOfType(DBException.class, db::init);
    }

    private DBException initFails(String... keyValues) {
        return initFails(new LsmDB(), keyValues);
    }

    private String dir() {
        return tmp.resolve("db").toString();
    }

    @Test
    void theModeMustBeKnown() {
        assertThat(initFails("lsm.mode", "remote")).hasMessageContaining("lsm.mode")
                .hasMessageContaining("'remote'").hasMessageContaining("accepted: embedded, feed");
        assertThat(initFails(new EmbeddedLsmDB(), "lsm.mode", "feed")).hasMessageContaining("lsm.mode")
                .hasMessageContaining("LsmDB");
        assertThat(initFails(new FeedLsmDB())).hasMessageContaining("lsm.mode");
    }

    @Test
    void anOptionsFileGivesTheStoreSettingsAndTheCommandLineWins() throws Exception {
        Path file = java.nio.file.Files.writeString(tmp.resolve("lsm.properties"), "# all store settings\n"
                + "lsm.dir = " + dir() + "\nlsm.policy = constant\nlsm.policy.num-components = 4\n"
                + "lsm.memtable.size = 64KB\nlsm.wal = off\n");
        Properties p = new Properties();
        p.setProperty("lsm.optionsfile", file.toString());
        p.setProperty("lsm.wal", "sync"); // the command line wins over the file
        BindingConfig c = BindingConfig.parse(p, BindingConfig.Mode.EMBEDDED);
        assertThat(c.embedded().dir()).isEqualTo(tmp.resolve("db"));
        assertThat(c.embedded().options().memtableBytes()).isEqualTo(64 << 10);
        assertThat(c.embedded().options().walMode()).isEqualTo(io.lsmpolicies.lsm.wal.SyncMode.SYNC);
        assertThat(c.embedded().options().policy().parameters().values()).containsEntry("k", 4);

        java.nio.file.Files.writeString(file, "recordcount = 10\n");
        assertThat(initFails("lsm.optionsfile", file.toString())).hasMessageContaining("lsm.optionsfile")
                .hasMessageContaining("sets recordcount; it may set lsm.* properties only");
        assertThat(initFails("lsm.optionsfile", tmp.resolve("none.properties").toString()))
                .hasMessageContaining("lsm.optionsfile: cannot read");
    }

    @Test
    void embeddedModeNeedsADirectory() {
        assertThat(initFails()).hasMessageContaining("lsm.dir is required");
        assertThat(initFails("lsm.dir", " ")).hasMessageContaining("lsm.dir is required");
    }

    @Test
    void embeddedSettingsAreValidated() {
        assertThat(initFails("lsm.dir", dir(), "lsm.wal", "fast")).hasMessageContaining("lsm.wal")
                .hasMessageContaining("'fast'").hasMessageContaining("accepted: sync, async, off");
        assertThat(initFails("lsm.dir", dir(), "lsm.device", "nvme")).hasMessageContaining("lsm.device")
                .hasMessageContaining("accepted: ssd, hdd, none");
        assertThat(initFails("lsm.dir", dir(), "lsm.memtable.size", "lots")).hasMessageContaining("lsm.memtable.size")
                .hasMessageContaining("e.g. 4MB");
        assertThat(initFails("lsm.dir", dir(), "lsm.memtable.size", "1KB"))
                .hasMessageContaining("lsm.memtable.size = 1024")
                .hasMessageContaining("memtableBytes must be in [4096");
        assertThat(initFails("lsm.dir", dir(), "lsm.mergeorder", "eager")).hasMessageContaining("lsm.mergeorder")
                .hasMessageContaining("'eager'")
                .hasMessageContaining("accepted: FLUSH_THEN_MERGE, MERGE_MEMTABLE, MERGE_MEMTABLE_SMALL");
        assertThat(initFails("lsm.dir", dir(), "lsm.policy", "leveled", "lsm.mergeorder", "merge_memtable"))
                .hasMessageContaining("lsm.mergeorder = MERGE_MEMTABLE").hasMessageContaining("use FLUSH_THEN_MERGE");
    }

    @Test
    void thePolicyIsValidatedByTheRegistry() {
        assertThat(initFails("lsm.dir", dir(), "lsm.policy", "nosuch")).hasMessageContaining("lsm.policy")
                .hasMessageContaining("unknown merge policy 'nosuch'").hasMessageContaining("binomial");
        assertThat(initFails("lsm.dir", dir(), "lsm.policy", "binomial:k=0")).hasMessageContaining("lsm.policy")
                .hasMessageContaining("'k'");
        assertThat(initFails("lsm.dir", dir(), "lsm.policy", "binomial", "lsm.policy.q", "3"))
                .hasMessageContaining("lsm.policy (binomial:q=3)");
        assertThat(initFails("lsm.dir", dir(), "lsm.policy", "binomial:k=4", "lsm.policy.k", "5"))
                .hasMessageContaining("lsm.policy.k").hasMessageContaining("give it once");
        assertThat(initFails("lsm.dir", dir(), "lsm.policy", "binomial:k")).hasMessageContaining("lsm.policy")
                .hasMessageContaining("param=value");
    }

    @Test
    void unknownPropertiesAndPropertiesOfTheOtherModeAreRefused() {
        assertThat(initFails("lsm.dir", dir(), "lsm.memtablesize", "4MB"))
                .hasMessageContaining("unknown property lsm.memtablesize").hasMessageContaining("lsm.memtable.size");
        assertThat(initFails("lsm.dir", dir(), "lsm.feed.address", "127.0.0.1:10001"))
                .hasMessageContaining("lsm.feed.address does not apply to lsm.mode=embedded");
        assertThat(initFails("lsm.mode", "feed", "lsm.dir", dir()))
                .hasMessageContaining("lsm.dir does not apply to lsm.mode=feed")
                .hasMessageContaining("descriptor");
        assertThat(initFails("lsm.mode", "feed", "lsm.policy.k", "4"))
                .hasMessageContaining("lsm.policy.k does not apply to lsm.mode=feed");
    }

    @Test
    void feedSettingsAreValidated() throws Exception {
        assertThat(initFails("lsm.mode", "feed", "lsm.feed.address", "localhost")).hasMessageContaining(
                "lsm.feed.address").hasMessageContaining("host:port");
        assertThat(initFails("lsm.mode", "feed", "lsm.http.address", "127.0.0.1:70000"))
                .hasMessageContaining("lsm.http.address").hasMessageContaining("[1, 65535]");
        assertThat(initFails("lsm.mode", "feed", "lsm.feed.acks", "yes")).hasMessageContaining("lsm.feed.acks")
                .hasMessageContaining("accepted: true, false");
        assertThat(initFails("lsm.mode", "feed", "lsm.timeout.ms", "0")).hasMessageContaining("lsm.timeout.ms")
                .hasMessageContaining("[1, 3600000]");
        assertThat(initFails("lsm.mode", "feed", "lsm.dataset", "a/b")).hasMessageContaining("lsm.dataset");
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        assertThat(initFails("lsm.mode", "feed", "lsm.http.address", "127.0.0.1:" + closed))
                .hasMessageContaining("lsm.http.address").hasMessageContaining("no node server");
    }
}
