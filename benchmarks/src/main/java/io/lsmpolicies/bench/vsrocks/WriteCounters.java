package io.lsmpolicies.bench.vsrocks;

/**
 * What a store wrote, read the same way for both systems.
 *
 * @param flushBytes bytes of the table files flushes wrote (ours: what the file layer wrote for flushes,
 *                   {@code metrics().io()}; RocksDB: the {@code FLUSH_WRITE_BYTES} ticker)
 * @param mergeBytes bytes of the table files merges wrote (ours: what the file layer wrote for merges, a flush's
 *                   merge of its MemTable included; RocksDB: the {@code COMPACT_WRITE_BYTES} ticker)
 * @param stallNanos time writers waited for a flush or merge (ours: {@code metrics().writes().stallNanos()};
 *                   RocksDB: the {@code STALL_MICROS} ticker)
 * @param tableBytes bytes of the live table files now (ours: {@code metrics().tables().diskBytes()}; RocksDB:
 *                   {@code rocksdb.live-sst-files-size})
 */
record WriteCounters(long flushBytes, long mergeBytes, long stallNanos, long tableBytes) {

    /** (flush bytes + merge bytes) / {@code userBytes}: the write amplification of this benchmark. */
    double writeAmplification(long userBytes) {
        return userBytes == 0 ? Double.NaN : (double) (flushBytes + mergeBytes) / userBytes;
    }
}
