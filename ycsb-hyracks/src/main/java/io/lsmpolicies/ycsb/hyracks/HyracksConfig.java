package io.lsmpolicies.ycsb.hyracks;

import static io.lsmpolicies.ycsb.common.PropertyValues.path;
import static io.lsmpolicies.ycsb.common.PropertyValues.size;

import io.lsmpolicies.lsm.io.DeviceProfile;
import io.lsmpolicies.ycsb.common.YcsbRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import site.ycsb.DBException;

/**
 * The binding's settings, parsed and validated in one place from YCSB's properties (the workload file plus
 * {@code -p} options). Every {@code hyracks.*} property must be known; a bad or missing value is a
 * {@link DBException} naming the property, the value and what is accepted. Immutable.
 *
 * @param dir             the index directory ({@value #DIR})
 * @param policy          the merge policy ({@value #POLICY} and {@value #POLICY_PARAM_PREFIX}{@code <param>})
 * @param memtableBytes   the page budget of each of the two memory components, in bytes ({@value #MEMTABLE_SIZE})
 * @param pageSize        the page size of disk and memory components ({@value #PAGE_SIZE})
 * @param cacheBytes      the disk buffer cache ({@value #CACHE_SIZE})
 * @param device          the emulated device, or null for none ({@value #DEVICE})
 * @param deviceName      {@code none}, {@code ssd} or {@code hdd}
 * @param traceFile       where the last DB instance writes the flush trace, or null ({@value #TRACE_FILE})
 * @param schema          the workload's field names (YCSB's {@code fieldcount} and {@code fieldnameprefix}): an update
 *                        writing all of them replaces the record without reading it
 */
record HyracksConfig(Path dir, HyracksPolicy policy, long memtableBytes, int pageSize, long cacheBytes,
        DeviceProfile device, String deviceName, Path traceFile, Set<String> schema) {

    static final String DIR = "hyracks.dir";
    static final String POLICY = "hyracks.policy";
    static final String POLICY_PARAM_PREFIX = "hyracks.policy.";
    static final String MEMTABLE_SIZE = "hyracks.memtable.size";
    static final String PAGE_SIZE = "hyracks.page-size";
    static final String CACHE_SIZE = "hyracks.cache.size";
    static final String DEVICE = "hyracks.device";
    static final String TRACE_FILE = "bench.trace.file";

    /** 4 MiB, the MemTable of Mao et al.'s AsterixDB runs and our engine's default. */
    static final long DEFAULT_MEMTABLE_BYTES = 4L << 20;
    /** 4 KiB, our engine's SSTable page (AsterixDB 0.9.8's own default is 128 KiB). */
    static final int DEFAULT_PAGE_SIZE = 4096;
    /** 32 MiB, our engine's default block cache. */
    static final long DEFAULT_CACHE_BYTES = 32L << 20;
    static final int MIN_PAGE_SIZE = 1024;
    static final int MAX_PAGE_SIZE = 1 << 20;
    /**
     * The fewest pages a memory component may have, measured: with a budget of 1 or 2 pages the first insert waits
     * for ever, with 3 it runs. An empty in-memory B-tree already uses 2 pages of the budget (its metadata page and
     * root leaf), so with 2 the component is full before it holds a record, and Hyracks never flushes an unmodified
     * component. 3 pages hold a few records per flush; a useful budget is far larger.
     */
    static final int MIN_MEMTABLE_PAGES = 3;
    static final long MAX_MEMTABLE_BYTES = 1L << 30;
    /** The fewest buffer-cache pages: a merge pins a page of each input and the bulk loader's pages at once. */
    static final int MIN_CACHE_PAGES = 128;

    private static final Set<String> KEYS = Set.of(DIR, POLICY, MEMTABLE_SIZE, PAGE_SIZE, CACHE_SIZE, DEVICE);

    /** The settings as text, to compare the settings of DB instances sharing one index. */
    String settings() {
        return POLICY + "=" + policy + ", " + MEMTABLE_SIZE + "=" + memtableBytes + ", " + PAGE_SIZE + "="
                + pageSize + ", " + CACHE_SIZE + "=" + cacheBytes + ", " + DEVICE + "=" + deviceName;
    }

    /** Pages of each memory component. */
    int memtablePages() {
        return (int) (memtableBytes / pageSize);
    }

    /**
     * Parses and validates the settings.
     *
     * @throws DBException naming the property, if a {@code hyracks.*} property is unknown, a required one is
     *                     missing or a value is bad
     */
    static HyracksConfig parse(Properties p) throws DBException {
        checkNames(p);
        String dirText = p.getProperty(DIR);
        if (dirText == null || dirText.isBlank()) {
            throw new DBException(DIR + " is required: the index directory (created if absent), e.g. -p " + DIR
                    + "=/tmp/ycsb-hyracks");
        }
        Path dir = path(DIR, dirText.trim());
        HyracksPolicy policy = HyracksPolicy.parse(p);
        long page = size(p, PAGE_SIZE, DEFAULT_PAGE_SIZE);
        if (page < MIN_PAGE_SIZE || page > MAX_PAGE_SIZE || Long.bitCount(page) != 1) {
            throw new DBException(PAGE_SIZE + ": '" + p.getProperty(PAGE_SIZE).trim() + "' is not accepted; accepted: "
                    + "a power of two from 1KB to 1MB (bytes, or KB/MB, binary units); default 4KB");
        }
        int pageSize = (int) page;
        long memtable = size(p, MEMTABLE_SIZE, DEFAULT_MEMTABLE_BYTES);
        long minMemtable = (long) MIN_MEMTABLE_PAGES * pageSize;
        if (memtable < minMemtable || memtable > MAX_MEMTABLE_BYTES) {
            throw new DBException(MEMTABLE_SIZE + ": '" + text(p, MEMTABLE_SIZE, memtable) + "' is not accepted; "
                    + "accepted: " + MIN_MEMTABLE_PAGES + " pages of " + PAGE_SIZE + " (" + minMemtable + " bytes with "
                    + pageSize + "-byte pages) to 1GB; default 4MB");
        }
        long cache = size(p, CACHE_SIZE, DEFAULT_CACHE_BYTES);
        long minCache = (long) MIN_CACHE_PAGES * pageSize;
        if (cache < minCache || cache / pageSize > Integer.MAX_VALUE) {
            throw new DBException(CACHE_SIZE + ": '" + text(p, CACHE_SIZE, cache) + "' is not accepted; accepted: at "
                    + "least " + MIN_CACHE_PAGES + " pages of " + PAGE_SIZE + " (" + minCache + " bytes with "
                    + pageSize + "-byte pages); default 32MB");
        }
        String deviceName = p.getProperty(DEVICE, "none").trim();
        DeviceProfile device;
        try {
            device = DeviceProfile.named(deviceName);
        } catch (IllegalArgumentException e) {
            throw new DBException(DEVICE + ": '" + deviceName + "' is not a device profile; accepted: ssd, hdd, none");
        }
        String trace = p.getProperty(TRACE_FILE);
        Path traceFile = trace == null || trace.isBlank() ? null : path(TRACE_FILE, trace.trim());
        return new HyracksConfig(dir, policy, memtable - memtable % pageSize, pageSize, cache - cache % pageSize,
                device, deviceName, traceFile, YcsbRecord.schema(p));
    }

    /** Every {@code hyracks.*} property must be known. */
    private static void checkNames(Properties p) throws DBException {
        for (String name : new TreeSet<>(p.stringPropertyNames())) {
            if (!name.startsWith("hyracks.") || KEYS.contains(name) || name.startsWith(POLICY_PARAM_PREFIX)) {
                continue;
            }
            List<String> known = new ArrayList<>(new TreeSet<>(KEYS));
            known.add(POLICY_PARAM_PREFIX + "<parameter>");
            known.add(TRACE_FILE);
            throw new DBException("unknown property " + name + "; known: " + String.join(", ", known));
        }
    }



    private static String text(Properties p, String name, long value) {
        String t = p.getProperty(name);
        return t == null ? Long.toString(value) : t.trim();
    }
}
