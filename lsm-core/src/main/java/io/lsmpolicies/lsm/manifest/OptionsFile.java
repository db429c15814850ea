package io.lsmpolicies.lsm.manifest;

import io.lsmpolicies.lsm.CorruptionException;
import io.lsmpolicies.lsm.CorruptionException.Code;
import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.io.IoCause;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * The {@code OPTIONS} file: the settings a store was last opened for writing with, kept beside the manifest so
 * that a store can be reopened (after a crash, by another tool, by a user who lost the load's command line)
 * without repeating them. The idea is RocksDB's {@code OPTIONS} file. Format version 1, UTF-8 text:
 *
 * <pre>
 * lsm-options 1
 * policy=binomial:k=6
 * merge-order=FLUSH_THEN_MERGE
 * memtable-bytes=4194304
 * page-bytes=4096
 * bloom-bits-per-key=10
 * max-key-bytes=1024
 * max-value-bytes=3048
 * crc32c=1a2b3c4d
 * </pre>
 *
 * The first line is the magic word and the format version; the last is the CRC32C, in eight lower-case hex
 * digits, of every byte before it. Every line ends with a newline; keys appear once, in any order, and a
 * reader refuses a key it does not know (a newer writer's setting it cannot honour). The file is replaced by
 * write-temp, fsync, atomic rename and directory fsync, so a crash leaves the old or the new file whole.
 */
public final class OptionsFile {
    /** The file's name in a store directory. */
    public static final String NAME = "OPTIONS";
    /** The largest file a reader accepts; the real one is a few hundred bytes. */
    static final int MAX_BYTES = 64 * 1024;

    private static final String MAGIC = "lsm-options";
    private static final int VERSION = 1;
    private static final String CRC_KEY = "crc32c=";

    private OptionsFile() {
    }

    /**
     * Writes {@code options} as {@code dir/OPTIONS}, replacing it atomically (see the class comment).
     *
     * @param files   the file layer every file operation goes through
     * @param dir     the store directory
     * @param options the store's options
     * @throws IOException if a write, sync or rename fails; the previous file, if any, is then still whole
     */
    public static void write(FileLayer files, Path dir, StoredOptions options) throws IOException {
        byte[] content = encode(options);
        Path tmp = dir.resolve(NAME + StoreFiles.TEMP_SUFFIX);
        try {
            try (FileChannel ch = files.open(tmp, IoCause.MANIFEST, StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer b = ByteBuffer.wrap(content);
                while (b.hasRemaining()) {
                    ch.write(b);
                }
                ch.force(true);
            }
            files.moveAtomically(tmp, dir.resolve(NAME));
        } catch (IOException e) {
            try {
                files.deleteIfExists(tmp);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw new IOException("cannot write " + dir.resolve(NAME) + ": " + e.getMessage(), e);
        }
        files.syncDirectory(dir);
    }

    /**
     * The options recorded in {@code dir}, or empty if the store has no {@code OPTIONS} file (a store made
     * before the file existed, or a directory without a store).
     *
     * @param files the file layer every file operation goes through
     * @param dir   the store directory
     * @return the options, or empty
     * @throws CorruptionException naming the file, the offset of the bad line and what is wrong, if the file
     *                             is damaged, of another format version, or names an unknown setting
     */
    public static Optional<StoredOptions> read(FileLayer files, Path dir) throws IOException {
        Path path = dir.resolve(NAME);
        if (!files.exists(path)) {
            return Optional.empty();
        }
        long size = files.size(path);
        if (size > MAX_BYTES) {
            throw new CorruptionException(path, 0, Code.BAD_LENGTH, "the file has " + size + " bytes, at most "
                    + MAX_BYTES + " are expected");
        }
        ByteBuffer bytes = ByteBuffer.allocate((int) size);
        try (FileChannel ch = files.open(path, IoCause.MANIFEST, StandardOpenOption.READ)) {
            while (bytes.hasRemaining() && ch.read(bytes) >= 0) {
                // read it all
            }
        }
        return Optional.of(decode(path, bytes.array(), bytes.position()));
    }

    static byte[] encode(StoredOptions o) {
        StringBuilder b = new StringBuilder();
        b.append(MAGIC).append(' ').append(VERSION).append('\n');
        o.asMap().forEach((k, v) -> b.append(k).append('=').append(v).append('\n'));
        byte[] body = b.toString().getBytes(StandardCharsets.UTF_8);
        String crc = CRC_KEY + String.format(Locale.ROOT, "%08x", crc(body, body.length)) + "\n";
        byte[] out = new byte[body.length + crc.length()];
        System.arraycopy(body, 0, out, 0, body.length);
        System.arraycopy(crc.getBytes(StandardCharsets.US_ASCII), 0, out, body.length, crc.length());
        return out;
    }

    static StoredOptions decode(Path path, byte[] bytes, int length) throws CorruptionException {
        int crcLine = lastLineStart(bytes, length);
        if (length == 0 || bytes[length - 1] != '\n' || crcLine < 0) {
            throw new CorruptionException(path, length, Code.TRUNCATED_HEADER, "the file does not end with its "
                    + "checksum line (" + CRC_KEY + "<8 hex digits> and a newline)");
        }
        String last = new String(bytes, crcLine, length - crcLine - 1, StandardCharsets.US_ASCII);
        if (!last.matches("crc32c=[0-9a-f]{8}")) {
            throw new CorruptionException(path, crcLine, Code.TRUNCATED_HEADER, "the last line must be "
                    + CRC_KEY + "<8 hex digits>, found \"" + printable(last) + "\"");
        }
        int stored = Integer.parseUnsignedInt(last.substring(CRC_KEY.length()), 16);
        int actual = crc(bytes, crcLine);
        if (stored != actual) {
            throw new CorruptionException(path, crcLine, Code.CHECKSUM_MISMATCH, String.format(Locale.ROOT,
                    "the file's bytes have CRC32C %08x, the file says %08x", actual, stored));
        }
        String text = new String(bytes, 0, crcLine, StandardCharsets.UTF_8);
        String[] lines = text.split("\n", -1);
        String header = lines[0];
        if (!header.startsWith(MAGIC + " ")) {
            throw new CorruptionException(path, 0, Code.BAD_MAGIC, "the first line must be \"" + MAGIC
                    + " <version>\", found \"" + printable(header) + "\"");
        }
        if (!header.equals(MAGIC + " " + VERSION)) {
            throw new CorruptionException(path, 0, Code.UNSUPPORTED_VERSION, "format \""
                    + printable(header.substring(MAGIC.length() + 1)) + "\"; this build reads version " + VERSION);
        }
        Map<String, String> values = new LinkedHashMap<>();
        long offset = header.length() + 1;
        for (int i = 1; i < lines.length - 1; i++) { // the element after the last newline is empty
            String line = lines[i];
            int eq = line.indexOf('=');
            if (eq <= 0) {
                throw new CorruptionException(path, offset, Code.INCONSISTENT_RECORD, "expected key=value, found \""
                        + printable(line) + "\"");
            }
            String key = line.substring(0, eq);
            if (values.put(key, line.substring(eq + 1)) != null) {
                throw new CorruptionException(path, offset, Code.INCONSISTENT_RECORD, "\"" + printable(key)
                        + "\" is given twice");
            }
            offset += line.getBytes(StandardCharsets.UTF_8).length + 1;
        }
        try {
            return StoredOptions.fromMap(values);
        } catch (IllegalArgumentException e) {
            Code code = e.getMessage().startsWith(StoredOptions.UNKNOWN_KEY) ? Code.UNKNOWN_TAG
                    : Code.INCONSISTENT_RECORD;
            throw new CorruptionException(path, 0, code, e.getMessage());
        }
    }

    /** The start of the last newline-terminated line of {@code bytes[0, length)}, or -1 if it has one line. */
    private static int lastLineStart(byte[] bytes, int length) {
        for (int i = length - 2; i >= 0; i--) {
            if (bytes[i] == '\n') {
                return i + 1;
            }
        }
        return -1;
    }

    private static int crc(byte[] bytes, int length) {
        CRC32C c = new CRC32C();
        c.update(bytes, 0, length);
        return (int) c.getValue();
    }

    private static String printable(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) {
            b.append(c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format(Locale.ROOT, "\\x%02x", (int) c));
        }
        return b.length() > 80 ? b.substring(0, 80) + "..." : b.toString();
    }
}
