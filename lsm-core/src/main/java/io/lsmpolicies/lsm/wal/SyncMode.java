package io.lsmpolicies.lsm.wal;

/** When a write is acknowledged, relative to its write-ahead-log record reaching the device. */
public enum SyncMode {
    /** Acknowledged once the record is fsynced: no acknowledged write is lost, even on power loss. */
    SYNC,
    /**
     * Acknowledged once the record is handed to the operating system: survives a process crash, and on power
     * loss the store recovers a prefix of the acknowledged writes. The log is fsynced when a segment is closed,
     * and forced in the background as it grows (every 8 MiB).
     */
    ASYNC,
    /** No write-ahead log: writes since the last flush are lost on any crash. */
    OFF
}
