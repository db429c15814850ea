package io.lsmpolicies.lsm.manifest;

import io.lsmpolicies.lsm.CorruptionException;
import io.lsmpolicies.lsm.CorruptionException.Code;
import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.io.IoCause;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.function.LongFunction;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * The names of a store's files and the CURRENT pointer protocol. A store directory holds {@code CURRENT}
 * (the name of the live manifest and a newline), {@code MANIFEST-<number>} files, {@code <number>.sst}
 * tables, {@code <number>.log} write-ahead-log segments, and transiently {@code *.tmp} files. Numbers are written with at least six digits and come from one
 * counter ({@link ComponentSet#nextFileNumber()}), so a manifest and a table never share a number. A name that
 * is not in exactly this form is not the store's, and the store never deletes it.
 */
public final class StoreFiles {
    /** The pointer to the live manifest. */
    public static final String CURRENT = "CURRENT";
    /** Suffix of files written before a rename; any such file left by a crash is an orphan. */
    public static final String TEMP_SUFFIX = ".tmp";

    private static final String MANIFEST_PREFIX = "MANIFEST-";
    private static final String TABLE_SUFFIX = ".sst";
    private static final String WAL_SUFFIX = ".log";
    private static final Pattern CURRENT_CONTENT = Pattern.compile("MANIFEST-[0-9]{6,19}\n");
    private static final int MAX_CURRENT_BYTES = 64;
    private StoreFiles() {
    }

    /**
     * {@return {@code MANIFEST-000042} for 42} REQUIRES: {@code number > 0}.
     *
     * @param number the file number
     */
    public static String manifestName(long number) {
        return MANIFEST_PREFIX + digits(number);
    }

    /**
     * {@return {@code 000042.sst} for 42} REQUIRES: {@code number > 0}.
     *
     * @param number the file number
     */
    public static String tableName(long number) {
        return digits(number) + TABLE_SUFFIX;
    }

    /**
     * {@return {@code 000042.log} for 42: a write-ahead-log segment} REQUIRES: {@code number > 0}.
     *
     * @param number the file number
     */
    public static String walName(long number) {
        return digits(number) + WAL_SUFFIX;
    }

    private static String digits(long number) {
        if (number <= 0) {
            throw new IllegalArgumentException("file numbers are > 0, was " + number);
        }
        return String.format(Locale.ROOT, "%06d", number);
    }

    /**
     * {@return the number of a manifest file name in canonical form, or empty for any other name}
     *
     * @param name a file name
     */
    public static OptionalLong manifestNumber(String name) {
        return name.startsWith(MANIFEST_PREFIX) ? canonical(name, name.substring(MANIFEST_PREFIX.length()), StoreFiles::manifestName)
                : OptionalLong.empty();
    }

    /**
     * {@return the number of a table file name in canonical form, or empty for any other name}
     *
     * @param name a file name
     */
    public static OptionalLong tableNumber(String name) {
        return name.endsWith(TABLE_SUFFIX)
                ? canonical(name, name.substring(0, name.length() - TABLE_SUFFIX.length()), StoreFiles::tableName)
                : OptionalLong.empty();
    }

    /**
     * {@return the number of a write-ahead-log segment name in canonical form, or empty for any other name}
     *
     * @param name a file name
     */
    public static OptionalLong walNumber(String name) {
        return name.endsWith(WAL_SUFFIX)
                ? canonical(name, name.substring(0, name.length() - WAL_SUFFIX.length()), StoreFiles::walName)
                : OptionalLong.empty();
    }

    private static OptionalLong canonical(String name, String digits, LongFunction<String> form) {
        if (digits.isEmpty() || digits.length() > 19 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return OptionalLong.empty();
        }
        long n = Long.parseLong(digits);
        if (n <= 0 || !name.equals(form.apply(n))) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(n);
    }

    /**
     * Points CURRENT at {@code manifestName} atomically: writes {@code CURRENT.tmp} with the name and a newline,
     * forces it, renames it over CURRENT (an atomic move), then forces the directory so that the rename (and the
     * manifest's own directory entry, created earlier in the same directory) survives a power loss. A crash at
     * any point leaves CURRENT naming either the old manifest or the new one, never a mix.
     *
     * <p>The directory sync is {@link FileLayer#syncDirectory}'s (skipped on Windows).
     */
    static void writeCurrent(FileLayer files, Path dir, String manifestName) throws IOException {
        writeCurrentTemp(files, dir, manifestName);
        installCurrent(files, dir);
    }

    /** The first half of {@link #writeCurrent}: writes and forces {@code CURRENT.tmp}; CURRENT is unchanged. */
    static void writeCurrentTemp(FileLayer files, Path dir, String manifestName) throws IOException {
        Path tmp = dir.resolve(CURRENT + TEMP_SUFFIX);
        byte[] content = (manifestName + "\n").getBytes(StandardCharsets.US_ASCII);
        try (FileChannel ch = files.open(tmp, IoCause.MANIFEST, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer b = ByteBuffer.wrap(content);
            while (b.hasRemaining()) {
                ch.write(b);
            }
            ch.force(true);
        }
    }

    /** The second half of {@link #writeCurrent}: renames {@code CURRENT.tmp} over CURRENT, syncs the directory. */
    static void installCurrent(FileLayer files, Path dir) throws IOException {
        files.moveAtomically(dir.resolve(CURRENT + TEMP_SUFFIX), dir.resolve(CURRENT));
        files.syncDirectory(dir);
    }

    /**
     * The manifest name CURRENT holds.
     *
     * @throws NoSuchFileException if there is no CURRENT: the directory holds no store
     * @throws CorruptionException ({@code BAD_MAGIC}) if CURRENT is not a manifest name and a newline
     */
    static String readCurrent(FileLayer files, Path dir) throws IOException {
        Path current = dir.resolve(CURRENT);
        if (!files.exists(current)) {
            throw new NoSuchFileException(current.toString(), null, "the directory " + dir
                    + " holds no store (it has no " + CURRENT + " file)");
        }
        long size = files.size(current);
        if (size > MAX_CURRENT_BYTES) {
            throw new CorruptionException(current, 0, Code.BAD_MAGIC, "CURRENT has " + size
                    + " bytes; it must hold a manifest file name and a newline");
        }
        ByteBuffer bytes = ByteBuffer.allocate((int) size);
        try (FileChannel ch = files.open(current, IoCause.MANIFEST, StandardOpenOption.READ)) {
            while (bytes.hasRemaining() && ch.read(bytes) >= 0) {
                // read it all
            }
        }
        String content = new String(bytes.array(), 0, bytes.position(), StandardCharsets.ISO_8859_1);
        if (!CURRENT_CONTENT.matcher(content).matches() || manifestNumber(content.strip()).isEmpty()) {
            throw new CorruptionException(current, 0, Code.BAD_MAGIC, "CURRENT must hold a manifest file name "
                    + "and a newline, found \"" + printable(content) + "\"");
        }
        return content.substring(0, content.length() - 1);
    }

    private static String printable(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) {
            b.append(c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format(Locale.ROOT, "\\x%02x", (int) c));
        }
        return b.toString();
    }
}
