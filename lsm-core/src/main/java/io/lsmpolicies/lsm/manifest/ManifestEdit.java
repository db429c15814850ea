package io.lsmpolicies.lsm.manifest;

import io.lsmpolicies.lsm.CorruptionException;
import io.lsmpolicies.lsm.CorruptionException.Code;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * One change to the {@link ComponentSet}, logged as one manifest record and applied all or nothing: a flush
 * (one table added), a merge install (its inputs removed and its outputs added, in one edit so that no reader
 * ever sees both or neither), a policy-state update, or a full snapshot (every table added, every field set).
 * Every part is optional. Immutable.
 *
 * <p>Encoding (format version {@value #FORMAT_VERSION}; version 1, whose tables had no {@code dataBytes}, was
 * never released): the version byte, then tagged fields in
 * {@link EditTag} order (a decoder accepts any order). See {@link EditTag} for each field's layout.
 *
 * @param added          tables added, in order; for level 0 the order is creation order, oldest first (see
 *                       {@link #applyTo}); no file number twice
 * @param removed        file numbers removed; no number twice
 * @param policy         the merge policy's name and state, if changed
 * @param nextFileNumber the next file number to hand out, {@code >= 1}, if changed
 * @param lastSequence   the last sequence number, {@code >= 0}, if changed
 * @param walNumber      the oldest live write-ahead log's number, {@code >= 0}, if changed
 * @param walSegment     the number of a write-ahead-log segment the store created (its log is on), {@code >= 0}, if
 *                       changed: while it equals {@code walNumber}, that segment must exist (see
 *                       {@link ComponentSet#requiredWalSegment()})
 */
public record ManifestEdit(List<TableRecord> added, List<Long> removed, Optional<PolicyRecord> policy,
        OptionalLong nextFileNumber, OptionalLong lastSequence, OptionalLong walNumber, OptionalLong walSegment) {

    /** The version byte every encoded edit starts with. */
    public static final int FORMAT_VERSION = 2;

    /** The edit that changes nothing. */
    public static final ManifestEdit EMPTY = builder().build();

    /**
     * Copies the lists and checks the values.
     *
     * @param added          tables added, in order; for level 0 the order is creation order, oldest first (see
     *                       {@link #applyTo}); no file number twice
     * @param removed        file numbers removed; no number twice
     * @param policy         the merge policy's name and state, if changed
     * @param nextFileNumber the next file number to hand out, {@code >= 1}, if changed
     * @param lastSequence   the last sequence number, {@code >= 0}, if changed
     * @param walNumber      the oldest live write-ahead log's number, {@code >= 0}, if changed
     * @param walSegment     the number of a write-ahead-log segment the store created (its log is on), {@code >= 0}, if
     *                       changed: while it equals {@code walNumber}, that segment must exist (see
     *                       {@link ComponentSet#requiredWalSegment()})
     * @throws IllegalArgumentException on a repeated file number or a value out of range, naming it
     */
    public ManifestEdit {
        added = List.copyOf(added);
        removed = List.copyOf(removed);
        if (policy == null || nextFileNumber == null || lastSequence == null || walNumber == null
                || walSegment == null) {
            throw new IllegalArgumentException("absent fields are Optional.empty(), not null");
        }
        Set<Long> seen = new HashSet<>();
        for (TableRecord t : added) {
            if (!seen.add(t.fileNumber())) {
                throw new IllegalArgumentException("edit adds file " + t.fileNumber() + " twice");
            }
        }
        seen.clear();
        for (long n : removed) {
            if (!seen.add(n)) {
                throw new IllegalArgumentException("edit removes file " + n + " twice");
            }
        }
        atLeast("nextFileNumber", nextFileNumber, 1);
        atLeast("lastSequence", lastSequence, 0);
        atLeast("walNumber", walNumber, 0);
        atLeast("walSegment", walSegment, 0);
    }

    private static void atLeast(String name, OptionalLong value, long min) {
        if (value.isPresent() && value.getAsLong() < min) {
            throw new IllegalArgumentException(name + " must be >= " + min + ", was " + value.getAsLong());
        }
    }

    /**
     * The set {@code set} becomes with this edit, which applies all or nothing, in this order:
     * <ol>
     *   <li>Every removed file number must be live; its table leaves its level.</li>
     *   <li>Every added file number must not be live after the removals (so removing and re-adding a number at
     *       another level is a trivial move).</li>
     *   <li>Level-0 additions are listed oldest first and are placed as one block, newest first: at the front
     *       of level 0 if the edit removes no level-0 table (a flush), otherwise at the position the newest
     *       removed level-0 table held (a merge install: the output takes its inputs' place, so a stack stays
     *       in creation order and later merges can still pick contiguous inputs).</li>
     *   <li>Deeper additions join their level in {@code minKey} order.</li>
     *   <li>An added virtual table's parents must be live before the edit (in a level, then removed by this
     *       edit, or already a parent) with the same record, unless the set is empty (a snapshot edit
     *       rebuilds it); afterwards the parents are exactly those of the live virtual tables, so a parent no
     *       virtual table points at any more is no longer live. No table is the parent of two.</li>
     *   <li>The policy and the three counters change where the edit sets them.</li>
     * </ol>
     *
     * @param set the set before the edit
     * @return the new set
     * @throws IllegalStateException naming the file number if a removed file is not live, an added file is live
     *                               or not below the resulting {@code nextFileNumber}; or naming the counter if
     *                               one would decrease
     */
    public ComponentSet applyTo(ComponentSet set) {
        return set.apply(this);
    }

    /** {@return a builder of an edit that changes nothing yet} */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * {@return this edit with {@code nextFileNumber} set to {@code value}, everything else unchanged}
     *
     * @param value the value
     */
    public ManifestEdit withNextFileNumber(long value) {
        return new ManifestEdit(added, removed, policy, OptionalLong.of(value), lastSequence, walNumber, walSegment);
    }

    /** {@return the record payload: the version byte and the tagged fields} */
    public byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + 128 * added.size());
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT_VERSION);
            for (EditTag tag : EditTag.values()) {
                tag.write(this, out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory cannot fail", e);
        }
        return bytes.toByteArray();
    }

    /**
     * Reads an edit written by {@link #encode()}.
     *
     * @param payload the record payload
     * @param file    the file it came from, for the exception
     * @param offset  the record's offset in {@code file}, for the exception
     * @return the edit
     * @throws CorruptionException {@code UNSUPPORTED_VERSION} for another format version, {@code UNKNOWN_TAG}
     *                             for a field tag this build does not know, {@code BAD_LENGTH} for a field cut
     *                             short or a length past the record, {@code INCONSISTENT_RECORD} for values
     *                             out of range or a single field given twice; the message names the payload
     *                             byte where the bad field starts
     */
    public static ManifestEdit decode(byte[] payload, Path file, long offset) throws CorruptionException {
        if (payload.length == 0) {
            throw new CorruptionException(file, offset, Code.BAD_LENGTH, "empty manifest record");
        }
        ByteBuffer in = ByteBuffer.wrap(payload);
        int version = Byte.toUnsignedInt(in.get());
        if (version != FORMAT_VERSION) {
            throw new CorruptionException(file, offset, Code.UNSUPPORTED_VERSION, "manifest edit format version "
                    + version + "; this build reads version " + FORMAT_VERSION);
        }
        Builder into = builder();
        while (in.hasRemaining()) {
            int at = in.position();
            int id = Byte.toUnsignedInt(in.get());
            EditTag tag = EditTag.byId(id);
            if (tag == null) {
                throw new CorruptionException(file, offset, Code.UNKNOWN_TAG, "unknown manifest field tag " + id
                        + " at payload byte " + at);
            }
            try {
                tag.read(in, into);
            } catch (BufferUnderflowException e) {
                throw new CorruptionException(file, offset, Code.BAD_LENGTH, tag + " field at payload byte " + at
                        + " is cut short by the end of the record");
            } catch (MalformedEditException e) {
                throw new CorruptionException(file, offset, e.code(), tag + " field at payload byte " + at + ": "
                        + e.getMessage());
            } catch (IllegalArgumentException e) {
                throw new CorruptionException(file, offset, Code.INCONSISTENT_RECORD, tag + " field at payload byte "
                        + at + ": " + e.getMessage());
            }
        }
        try {
            return into.build();
        } catch (IllegalArgumentException e) {
            throw new CorruptionException(file, offset, Code.INCONSISTENT_RECORD, e.getMessage());
        }
    }

    /** Collects the parts of an edit; every single-valued part may be set at most once. Not thread-safe. */
    public static final class Builder {
        private final List<TableRecord> added = new ArrayList<>();
        private final List<Long> removed = new ArrayList<>();
        private PolicyRecord policy;
        private Long nextFileNumber;
        private Long lastSequence;
        private Long walNumber;
        private Long walSegment;

        private Builder() {
        }

        /**
         * Adds a table; level-0 tables in creation order, oldest first.
         *
         * @param table the table record
         * @return this builder
         */
        public Builder addTable(TableRecord table) {
            added.add(table);
            return this;
        }

        /**
         * Removes a table, by file number.
         *
         * @param fileNumber the table's file number
         * @return this builder
         */
        public Builder removeFile(long fileNumber) {
            removed.add(fileNumber);
            return this;
        }

        /**
         * Sets the merge policy.
         *
         * @param value the merge policy
         * @return this builder
         */
        public Builder policy(PolicyRecord value) {
            policy = once("policy", policy, value);
            return this;
        }

        /**
         * Sets the policy record from its name and encoded state.
         *
         * @param name   the policy's name
         * @param state its encoded state
         * @return this builder
         */
        public Builder policy(String name, byte[] state) {
            return policy(new PolicyRecord(name, state));
        }

        /**
         * Sets the next file number.
         *
         * @param value the next file number
         * @return this builder
         */
        public Builder nextFileNumber(long value) {
            nextFileNumber = once("nextFileNumber", nextFileNumber, value);
            return this;
        }

        /**
         * Sets the last sequence number.
         *
         * @param value the last sequence number
         * @return this builder
         */
        public Builder lastSequence(long value) {
            lastSequence = once("lastSequence", lastSequence, value);
            return this;
        }

        /**
         * Sets the oldest live write-ahead-log segment.
         *
         * @param value the oldest live write-ahead-log segment
         * @return this builder
         */
        public Builder walNumber(long value) {
            walNumber = once("walNumber", walNumber, value);
            return this;
        }

        /**
         * {@return a segment the store created, to be recorded with {@code walNumber} when the log is on}
         *
         * @param value the value
         */
        public Builder walSegment(long value) {
            walSegment = once("walSegment", walSegment, value);
            return this;
        }

        private static <T> T once(String name, T current, T value) {
            if (current != null) {
                throw new IllegalArgumentException(name + " is set twice in one edit");
            }
            return value;
        }

        /**
         * @throws IllegalArgumentException as {@link ManifestEdit}'s constructor
         *
         * @return the edit
         */
        public ManifestEdit build() {
            return new ManifestEdit(added, removed, Optional.ofNullable(policy), optional(nextFileNumber),
                    optional(lastSequence), optional(walNumber), optional(walSegment));
        }

        private static OptionalLong optional(Long value) {
            return value == null ? OptionalLong.empty() : OptionalLong.of(value);
        }
    }
}
