package io.lsmpolicies.lsm.manifest;

import io.lsmpolicies.lsm.CorruptionException.Code;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.function.ObjLongConsumer;

/**
 * The fields of an encoded {@link ManifestEdit}. Each tag has a stable persistent id (the byte written before
 * the field) and its own encoding. Ids are never reused: a retired tag keeps its constant (or at least its id
 * in this comment) so that no later tag takes its number. Big-endian; a key or byte string is a u32 length
 * then the bytes, the policy name a u16 length then UTF-8 bytes.
 *
 * <pre>
 * id 1 ADD_TABLE        fileNumber u64 | level u32 | fileBytes u64 | entries u64 | tombstones u64 | minKey | maxKey
 *                       | minSequence u64 | maxSequence u64 | minFlushIndex u64 | maxFlushIndex u64
 *                       | createdMillis u64 | oldestTombstoneMillis u64 | dataBytes u64
 *                                                                              -- once per added table, in order
 * id 2 REMOVE_FILE      fileNumber u64                                         -- once per removed file
 * id 3 POLICY           name (u16 length, UTF-8) | state (u32 length, bytes)   -- at most once
 * id 4 NEXT_FILE_NUMBER u64                                                    -- at most once
 * id 5 LAST_SEQUENCE    u64                                                    -- at most once
 * id 6 WAL_NUMBER       u64                                                    -- at most once
 * id 7 ADD_VIRTUAL_TABLE table (as ADD_TABLE) | parentCount u32 | parentCount x table (as ADD_TABLE)
 *                                                          -- once per added virtual table, after the real ones
 * id 8 WAL_SEGMENT      u64                                                    -- at most once
 * </pre>
 * A build without tag 7 refuses an edit that has one ({@code UNKNOWN_TAG}): it could not read the store. The same
 * holds for tag 8, which a store with its log on writes beside every {@code WAL_NUMBER}: an older build would not
 * know that the segment must exist.
 */
public enum EditTag {
    /** One table added by the edit; repeated, in the edit's order. */
    ADD_TABLE(1) {
        @Override
        void write(ManifestEdit edit, DataOutputStream out) throws IOException {
            for (TableRecord t : edit.added()) {
                if (!t.isVirtual()) {
                    out.writeByte(id());
                    writeTable(out, t);
                }
            }
        }

        @Override
        void read(ByteBuffer in, ManifestEdit.Builder into) {
            into.addTable(readTable(in, List.of()));
        }
    },
    /** One file number removed by the edit; repeated. */
    REMOVE_FILE(2) {
        @Override
        void write(ManifestEdit edit, DataOutputStream out) throws IOException {
            for (long n : edit.removed()) {
                out.writeByte(id());
                out.writeLong(n);
            }
        }

        @Override
        void read(ByteBuffer in, ManifestEdit.Builder into) {
            into.removeFile(in.getLong());
        }
    },
    /** The policy's name and encoded state. */
    POLICY(3) {
        @Override
        void write(ManifestEdit edit, DataOutputStream out) throws IOException {
            if (edit.policy().isPresent()) {
                PolicyRecord p = edit.policy().get();
                byte[] name = p.name().getBytes(StandardCharsets.UTF_8);
                out.writeByte(id());
                out.writeShort(name.length);
                out.write(name);
                writeBytes(out, p.stateUnsafe());
            }
        }

        @Override
        void read(ByteBuffer in, ManifestEdit.Builder into) {
            int nameLength = Short.toUnsignedInt(in.getShort());
            ByteBuffer nameBytes = ByteBuffer.wrap(take(in, nameLength, "policy name"));
            String name;
            try {
                name = StandardCharsets.UTF_8.newDecoder().decode(nameBytes).toString();
            } catch (CharacterCodingException e) {
                throw new MalformedEditException(Code.INCONSISTENT_RECORD, "policy name is not valid UTF-8");
            }
            into.policy(new PolicyRecord(name, readBytes(in, "policy state")));
        }
    },
    /** The next file number to hand out. */
    NEXT_FILE_NUMBER(4, ManifestEdit::nextFileNumber, ManifestEdit.Builder::nextFileNumber),
    /** The last sequence number whose write is in an SSTable or a live WAL. */
    LAST_SEQUENCE(5, ManifestEdit::lastSequence, ManifestEdit.Builder::lastSequence),
    /** The oldest write-ahead log whose records are not all in SSTables. */
    WAL_NUMBER(6, ManifestEdit::walNumber, ManifestEdit.Builder::walNumber),
    /** One virtual table added by the edit, with its parents' records; repeated. */
    ADD_VIRTUAL_TABLE(7) {
        @Override
        void write(ManifestEdit edit, DataOutputStream out) throws IOException {
            for (TableRecord t : edit.added()) {
                if (t.isVirtual()) {
                    out.writeByte(id());
                    writeTable(out, t);
                    out.writeInt(t.parents().size());
                    for (TableRecord p : t.parents()) {
                        writeTable(out, p);
                    }
                }
            }
        }

        @Override
        void read(ByteBuffer in, ManifestEdit.Builder into) {
            // The table's own fields come first; its record is built once its parents are read.
            int start = in.position();
            readTable(in, List.of()); // skipped: validated again below, with its parents
            int count = in.getInt();
            if (count < 1 || count > in.remaining() / MIN_TABLE_BYTES) {
                throw new MalformedEditException(Code.BAD_LENGTH, "virtual table parent count "
                        + Integer.toUnsignedString(count) + " for the " + in.remaining() + " bytes left");
            }
            List<TableRecord> parents = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                parents.add(readTable(in, List.of()));
            }
            int end = in.position();
            in.position(start);
            TableRecord t = readTable(in, parents);
            in.position(end);
            into.addTable(t);
        }
    },
    /** A write-ahead-log segment the store created; while it is the oldest live one it must exist. */
    WAL_SEGMENT(8, ManifestEdit::walSegment, ManifestEdit.Builder::walSegment);

    /** The fewest bytes an encoded table takes (empty keys). */
    private static final int MIN_TABLE_BYTES = 8 + 4 + 8 * 3 + 4 + 4 + 8 * 7;

    private static void writeTable(DataOutputStream out, TableRecord t) throws IOException {
        out.writeLong(t.fileNumber());
        out.writeInt(t.level());
        out.writeLong(t.fileBytes());
        out.writeLong(t.entries());
        out.writeLong(t.tombstones());
        writeBytes(out, t.minKeyUnsafe());
        writeBytes(out, t.maxKeyUnsafe());
        out.writeLong(t.minSequence());
        out.writeLong(t.maxSequence());
        out.writeLong(t.minFlushIndex());
        out.writeLong(t.maxFlushIndex());
        out.writeLong(t.createdMillis());
        out.writeLong(t.oldestTombstoneMillis());
        out.writeLong(t.dataBytes());
    }

    private static TableRecord readTable(ByteBuffer in, List<TableRecord> parents) {
        long fileNumber = in.getLong();
        int level = in.getInt();
        long fileBytes = in.getLong();
        long entries = in.getLong();
        long tombstones = in.getLong();
        byte[] minKey = readBytes(in, "minKey");
        byte[] maxKey = readBytes(in, "maxKey");
        return new TableRecord(fileNumber, level, fileBytes, entries, tombstones, minKey, maxKey, in.getLong(),
                in.getLong(), in.getLong(), in.getLong(), in.getLong(), in.getLong(), in.getLong(), parents);
    }

    private final int id;
    /** For the counter tags (a single u64): how to get the value from an edit and set it on a builder. */
    private final Function<ManifestEdit, OptionalLong> counter;
    private final ObjLongConsumer<ManifestEdit.Builder> setCounter;

    EditTag(int id) {
        this(id, null, null);
    }

    EditTag(int id, Function<ManifestEdit, OptionalLong> counter, ObjLongConsumer<ManifestEdit.Builder> setCounter) {
        this.id = id;
        this.counter = counter;
        this.setCounter = setCounter;
    }

    /** {@return the stable id written before the field; never reused} */
    public int id() {
        return id;
    }

    /** The tag with stored id {@code id}, or null if this build knows none. */
    static EditTag byId(int id) {
        for (EditTag t : values()) {
            if (t.id == id) {
                return t;
            }
        }
        return null;
    }

    /** Writes this tag's fields of {@code edit} (tag byte and body each), none if the edit has none. */
    void write(ManifestEdit edit, DataOutputStream out) throws IOException {
        OptionalLong value = counter.apply(edit);
        if (value.isPresent()) {
            out.writeByte(id);
            out.writeLong(value.getAsLong());
        }
    }

    /**
     * Reads one field's body (the tag byte already consumed) into {@code into}.
     *
     * @throws java.nio.BufferUnderflowException if the body is cut short
     * @throws MalformedEditException            if a length is impossible or a string malformed
     * @throws IllegalArgumentException          if a value breaks a record's rules or repeats a single field
     */
    void read(ByteBuffer in, ManifestEdit.Builder into) {
        setCounter.accept(into, in.getLong());
    }

    private static void writeBytes(DataOutputStream out, byte[] bytes) throws IOException {
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static byte[] readBytes(ByteBuffer in, String what) {
        return take(in, in.getInt(), what);
    }

    private static byte[] take(ByteBuffer in, int length, String what) {
        if (length < 0 || length > in.remaining()) {
            throw new MalformedEditException(Code.BAD_LENGTH, what + " length " + Integer.toUnsignedString(length)
                    + " runs past the " + in.remaining() + " bytes left in the record");
        }
        byte[] b = new byte[length];
        in.get(b);
        return b;
    }
}
