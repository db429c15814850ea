package io.lsmpolicies.lsm.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * A store's event log: one JSON line per {@link StoreEvent} in the file {@value #FILE} of the store directory.
 * When appending a line would take the file past its cap, the file is renamed to {@value #OLD_FILE} (replacing the
 * previous one) and a new one begun, so the log never holds more than about twice the cap. It is a diagnostic:
 * lines are written without sync, a failed write (a full disk) is counted and never fails the store, and a line a
 * crash cut short is skipped by {@link #read}. Thread-safe.
 */
public final class EventLog implements Closeable {
    /** The current log file's name. */
    public static final String FILE = "EVENTS";
    /** The previous log file's name. */
    public static final String OLD_FILE = "EVENTS.old";
    /** The default cap on one log file, 1 MiB. */
    public static final long DEFAULT_MAX_BYTES = 1L << 20;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;
    private final long maxBytes;
    private FileChannel channel;
    private long size;
    private long failures;

    private EventLog(Path dir, long maxBytes) {
        this.dir = dir;
        this.maxBytes = maxBytes;
    }

    /**
     * {@return a log in {@code dir} whose files hold at most {@code maxBytes} each; 0 keeps no log}
     *
     * @param dir      the store directory
     * @param maxBytes the cap on each of the two files in bytes (0: no log)
     */
    public static EventLog open(Path dir, long maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("event log cap must be >= 0, was " + maxBytes);
        }
        return new EventLog(dir, maxBytes);
    }

    /**
     * {@return whether {@code name} is one of the event log's files (which a store's directory may hold)}
     *
     * @param name a file name
     */
    public static boolean isLogFile(String name) {
        return name.equals(FILE) || name.equals(OLD_FILE);
    }

    /**
     * {@return {@code event} as its JSON line (without the newline)}
     *
     * @param event the event
     */
    public static String toJson(StoreEvent event) {
        try {
            return JSON.writeValueAsString(event);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write event " + event, e);
        }
    }

    /**
     * Appends {@code event}; a failure to write is counted ({@link #failures}), never thrown.
     *
     * @param event the event
     */
    public synchronized void append(StoreEvent event) {
        if (maxBytes == 0) {
            return;
        }
        byte[] line = (toJson(event) + "\n").getBytes(StandardCharsets.UTF_8);
        try {
            if (channel == null) {
                channel = FileChannel.open(dir.resolve(FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                        StandardOpenOption.APPEND);
                size = channel.size();
            }
            if (size > 0 && size + line.length > maxBytes) {
                channel.close();
                channel = null;
                Files.move(dir.resolve(FILE), dir.resolve(OLD_FILE), StandardCopyOption.REPLACE_EXISTING);
                channel = FileChannel.open(dir.resolve(FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                        StandardOpenOption.APPEND);
                size = 0;
            }
            ByteBuffer b = ByteBuffer.wrap(line);
            while (b.hasRemaining()) {
                size += channel.write(b);
            }
        } catch (IOException e) {
            failures++;
        }
    }

    /**
     * Events that could not be written (a full disk, a removed directory).
     *
     * @return the count
     */
    public synchronized long failures() {
        return failures;
    }

    @Override
    public synchronized void close() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                failures++;
            }
            channel = null;
        }
    }

    /**
     * The events the log in {@code dir} holds, oldest first (the previous file's, then the current one's). A line
     * that is not a whole event (cut short by a crash, or damaged) is skipped and counted in
     * {@link Contents#skippedLines}.
     *
     * @param dir the store directory
     * @return the events and the lines skipped
     * @throws IOException if an I/O operation fails
     */
    public static Contents read(Path dir) throws IOException {
        List<StoreEvent> events = new ArrayList<>();
        int skipped = 0;
        for (String name : List.of(OLD_FILE, FILE)) {
            List<String> lines;
            try {
                lines = Files.readAllLines(dir.resolve(name), StandardCharsets.UTF_8);
            } catch (NoSuchFileException e) {
                continue;
            } catch (java.nio.charset.MalformedInputException e) {
                lines = List.of(new String(Files.readAllBytes(dir.resolve(name)), StandardCharsets.UTF_8)
                        .split("\n"));
            }
            for (String line : lines) {
                if (line.isBlank()) {
                    continue;
                }
                try {
                    events.add(JSON.readValue(line, StoreEvent.class));
                } catch (JsonProcessingException | IllegalArgumentException e) {
                    skipped++;
                }
            }
        }
        return new Contents(events, skipped);
    }

    /**
     * What {@link #read} found.
     *
     * @param events       the events, oldest first
     * @param skippedLines lines that were not whole events
     */
    public record Contents(List<StoreEvent> events, int skippedLines) {
        /**
         * Copies the events.
         *
         * @param events       the events, oldest first
         * @param skippedLines lines that were not whole events
         */
        public Contents {
            events = List.copyOf(events);
        }
    }
}
