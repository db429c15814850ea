package io.lsmpolicies.lsm.log;

import io.lsmpolicies.lsm.CorruptionException;
import io.lsmpolicies.lsm.io.FileLayer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Replays a write-ahead-log segment: every intact write batch ({@link WalRecord}), in order. A torn final record (a crash
 * during the last write) ends the replay cleanly; any other damage is a {@link CorruptionException}.
 */
public final class WalReplay {
    private WalReplay() {
    }

    /**
     * Feeds each batch of {@code segment} to {@code apply}, and returns how the segment ended.
     *
     * @throws CorruptionException naming the file and the record's offset if a record is damaged
     */
    public static LogTail replay(Path segment, Consumer<WalRecord> apply) throws IOException {
        return replay(FileLayer.plain(), segment, apply);
    }

    /** As {@link #replay(Path, Consumer)}, with I/O through {@code files}. */
    public static LogTail replay(FileLayer files, Path segment, Consumer<WalRecord> apply) throws IOException {
        try (LogReader reader = LogReader.open(files, segment, LogKind.WAL, WalWriter.MAX_RECORD_BYTES, true)) {
            for (byte[] record = reader.next(); record != null; record = reader.next()) {
                WalRecord batch;
                try {
                    batch = WalRecord.decode(record);
                } catch (IllegalArgumentException e) {
                    throw new CorruptionException(segment, reader.recordOffset(), CorruptionException.Code.BAD_LENGTH,
                            "write batch: " + e.getMessage());
                }
                apply.accept(batch);
            }
            return reader.tail();
        }
    }
}
