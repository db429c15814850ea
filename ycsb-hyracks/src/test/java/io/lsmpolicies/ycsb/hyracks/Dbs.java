package io.lsmpolicies.ycsb.hyracks;

import java.nio.file.Path;
import java.util.Properties;
import site.ycsb.DBException;

/** DB instances for in-process tests. */
final class Dbs {
    private Dbs() {
    }

    /** The properties of an index in {@code dir}, then {@code keyValues} (alternating) added. */
    static Properties props(Path dir, String... keyValues) {
        Properties p = new Properties();
        p.setProperty(HyracksConfig.DIR, dir.toString());
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return p;
    }

    /** An initialised DB instance. */
    static HyracksLsmDB open(Properties p) throws DBException {
        HyracksLsmDB db = new HyracksLsmDB();
        db.setProperties(p);
        db.init();
        return db;
    }
}
