package io.lsmpolicies.lsm;

import io.lsmpolicies.lsm.memtable.MemTable;

/**
 * A MemTable with what the store needs to retire it: the write-ahead-log segment holding its writes (deleted
 * once the MemTable's flush is installed) and its creation time (a bound on the age of its tombstones).
 *
 * @param table         the MemTable
 * @param walNumber     file number of its WAL segment (allocated even when the WAL is off, so numbers stay
 *                      in step with the manifest's {@code walNumber})
 * @param createdMillis when it started taking writes
 */
record LiveMemTable(MemTable table, long walNumber, long createdMillis) {
}
