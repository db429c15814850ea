package io.lsmpolicies.lsm.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The event log's file format, rotation, cap, damaged lines and failures. */
class EventLogTest {
    @TempDir
    Path dir;

    @Test
    void everyKindOfEventReadsBackAsItWasWritten() throws Exception {
        List<StoreEvent> events = List.of(
                new StoreEvent.Recovery(1, "opened", "created"),
                new StoreEvent.Flush(2, 1, List.of(5L), 4096, List.of(), 120, 1),
                new StoreEvent.Merge(3, "REAL", "3 SSTables > k=2: merge all", 0, List.of(5L, 6L, 7L), List.of(9L),
                        12_000, 11_000, 900),
                new StoreEvent.Stall(4, 5000, 2),
                new StoreEvent.MergeLag(5, 77),
                new StoreEvent.Failure(6, "java.io.IOException: No space left on device"),
                new StoreEvent.Closed(7, "flushed and closed"));
        try (EventLog log = EventLog.open(dir, EventLog.DEFAULT_MAX_BYTES)) {
            events.forEach(log::append);
            assertThat(log.failures()).isZero();
        }
        assertThat(EventLog.read(dir).events()).isEqualTo(events);
        String first = Files.readAllLines(dir.resolve(EventLog.FILE)).get(2);
        assertThat(first).startsWith("{\"event\":\"merge\"").contains("\"reason\":\"3 SSTables > k=2: merge all\"");
    }

    @Test
    void theLogRotatesAtItsCapAndKeepsOnlyThePreviousFile() throws Exception {
        long cap = 2000;
        try (EventLog log = EventLog.open(dir, cap)) {
            for (int i = 1; i <= 500; i++) {
                log.append(new StoreEvent.MergeLag(i, i));
            }
        }
        assertThat(Files.size(dir.resolve(EventLog.FILE))).isLessThanOrEqualTo(cap);
        assertThat(Files.size(dir.resolve(EventLog.OLD_FILE))).isLessThanOrEqualTo(cap);
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder(EventLog.FILE,
                    EventLog.OLD_FILE);
        }
        List<StoreEvent> read = EventLog.read(dir).events();
        assertThat(read.get(read.size() - 1).timeMillis()).isEqualTo(500);
        for (int i = 1; i < read.size(); i++) {
            assertThat(read.get(i).timeMillis()).isEqualTo(read.get(i - 1).timeMillis() + 1);
        }
        assertThat(read.size()).isLessThan(500);
    }

    @Test
    void aLineACrashCutShortOrDamagedIsSkippedAndCounted() throws Exception {
        try (EventLog log = EventLog.open(dir, EventLog.DEFAULT_MAX_BYTES)) {
            log.append(new StoreEvent.MergeLag(1, 1));
            log.append(new StoreEvent.MergeLag(2, 2));
        }
        Files.write(dir.resolve(EventLog.FILE), "{\"event\":\"flush\",\"timeMi\n\u00ff\u00fe\n{\"event\":\"bogus\"}\n"
                .getBytes(StandardCharsets.ISO_8859_1), StandardOpenOption.APPEND);
        EventLog.Contents c = EventLog.read(dir);
        assertThat(c.events()).extracting(StoreEvent::timeMillis).containsExactly(1L, 2L);
        assertThat(c.skippedLines()).isEqualTo(3);
    }

    @Test
    void aCapOfZeroKeepsNoLogAndAnUnwritableDirectoryIsCountedNotThrown() throws Exception {
        try (EventLog off = EventLog.open(dir, 0)) {
            off.append(new StoreEvent.MergeLag(1, 1));
        }
        assertThat(Files.exists(dir.resolve(EventLog.FILE))).isFalse();
        try (EventLog gone = EventLog.open(dir.resolve("no-such-dir"), 1000)) {
            gone.append(new StoreEvent.MergeLag(1, 1));
            gone.append(new StoreEvent.MergeLag(2, 2));
            assertThat(gone.failures()).isEqualTo(2);
        }
        assertThat(EventLog.read(dir.resolve("no-such-dir")).events()).isEmpty();
    }
}
