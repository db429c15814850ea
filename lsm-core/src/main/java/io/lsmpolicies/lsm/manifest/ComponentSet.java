package io.lsmpolicies.lsm.manifest;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The store's live disk components and the counters the manifest keeps beside them: what a reader may read
 * and what a merge policy decides on. Immutable: each manifest edit makes a new set.
 *
 * <p>Orderings (tests check each):
 * <ul>
 *   <li>Level 0: creation order, <b>newest first</b> (index 0 is the newest table).</li>
 *   <li>Deeper levels: ascending by {@code minKey} (unsigned bytes), ties by file number. Overlap between a
 *       deeper level's tables is not checked here; the engine's install step owns that rule.</li>
 *   <li>{@link #levels()} has no trailing empty level; inner levels may be empty.</li>
 * </ul>
 * Invariants: file numbers are unique across levels; every live file number is below {@link #nextFileNumber()};
 * {@code nextFileNumber}, {@code lastSequence} and {@code walNumber} never decrease from one set to the next.
 *
 * <p>Virtual tables (delayed compaction) sit in levels {@code >= 1} like real ones; their parents are in no
 * level but are live files: {@link #parents()} holds every real table some live virtual table points at, and
 * {@link #fileNumbers()} (the files that must exist) includes them.
 */
public final class ComponentSet {
    private static final Comparator<TableRecord> BY_MIN_KEY =
            ((Comparator<TableRecord>) TableRecord::compareMinKey).thenComparingLong(TableRecord::fileNumber);

    private static final ComponentSet EMPTY = new ComponentSet(List.of(), Map.of(), Map.of(), null, 1, 0, 0, 0);

    private final List<List<TableRecord>> levels;
    private final Map<Long, TableRecord> byNumber;
    private final Map<Long, TableRecord> parents;
    private final PolicyRecord policy;
    private final long nextFileNumber;
    private final long lastSequence;
    private final long walNumber;
    private final long walSegment;

    private ComponentSet(List<List<TableRecord>> levels, Map<Long, TableRecord> byNumber,
            Map<Long, TableRecord> parents, PolicyRecord policy, long nextFileNumber, long lastSequence,
            long walNumber, long walSegment) {
        this.levels = levels;
        this.byNumber = byNumber;
        this.parents = parents;
        this.policy = policy;
        this.nextFileNumber = nextFileNumber;
        this.lastSequence = lastSequence;
        this.walNumber = walNumber;
        this.walSegment = walSegment;
    }

    /** {@return no tables, no policy, {@code nextFileNumber} 1, {@code lastSequence} 0, {@code walNumber} 0} */
    public static ComponentSet empty() {
        return EMPTY;
    }

    /**
     * The set after {@code edit}, by the rules {@link ManifestEdit#applyTo} states (the engine's packages call that;
     * this package's code and tests call this).
     *
     * @param edit the edit
     * @return the new set
     * @throws IllegalStateException as {@link ManifestEdit#applyTo}
     */
    ComponentSet apply(ManifestEdit edit) {
        Set<Long> removed = new HashSet<>(edit.removed());
        for (long n : edit.removed()) {
            if (!byNumber.containsKey(n)) {
                throw new IllegalStateException("edit removes file " + n + ", which is not in the component set");
            }
        }
        long next = counter("nextFileNumber", nextFileNumber, edit.nextFileNumber());
        long sequence = counter("lastSequence", lastSequence, edit.lastSequence());
        long wal = counter("walNumber", walNumber, edit.walNumber());
        long segment = counter("walSegment", walSegment, edit.walSegment());

        Map<Long, TableRecord> live = new HashMap<>(byNumber);
        live.keySet().removeAll(removed);
        for (TableRecord t : edit.added()) {
            if (live.containsKey(t.fileNumber())) {
                throw new IllegalStateException("edit adds file " + t.fileNumber() + ", which is already in the "
                        + "component set (level " + live.get(t.fileNumber()).level() + ")");
            }
            if (t.fileNumber() >= next) {
                throw new IllegalStateException("edit adds file " + t.fileNumber() + ", which is not below "
                        + "nextFileNumber " + next);
            }
            live.put(t.fileNumber(), t);
        }
        boolean rebuilding = byNumber.isEmpty() && parents.isEmpty(); // a snapshot edit brings the parents along
        for (TableRecord t : edit.added()) {
            for (TableRecord p : t.parents()) {
                TableRecord was = byNumber.containsKey(p.fileNumber()) ? byNumber.get(p.fileNumber())
                        : parents.get(p.fileNumber());
                if (rebuilding && was == null && p.fileNumber() < next && !live.containsKey(p.fileNumber())) {
                    continue;
                }
                if (was == null || was.isVirtual() || !was.atLevel(0).equals(p.atLevel(0))) {
                    throw new IllegalStateException("edit adds virtual table " + t.fileNumber() + " with parent "
                            + p.fileNumber() + ", which is " + (was == null ? "not live" : "live with another record"));
                }
                if (live.containsKey(p.fileNumber())) {
                    throw new IllegalStateException("edit adds virtual table " + t.fileNumber() + " with parent "
                            + p.fileNumber() + ", which stays in level " + live.get(p.fileNumber()).level());
                }
            }
        }
        Map<Long, TableRecord> parentsAfter = new HashMap<>();
        for (TableRecord t : live.values()) {
            for (TableRecord p : t.parents()) {
                if (parentsAfter.put(p.fileNumber(), p) != null) {
                    throw new IllegalStateException("file " + p.fileNumber() + " would be the parent of two virtual"
                            + " tables");
                }
            }
        }

        int levelCount = levels.size();
        for (TableRecord t : edit.added()) {
            levelCount = Math.max(levelCount, t.level() + 1);
        }
        List<List<TableRecord>> out = new ArrayList<>(levelCount);
        for (int i = 0; i < levelCount; i++) {
            out.add(i < levels.size() ? filtered(levels.get(i), removed) : new ArrayList<>());
        }
        int level0Position = newestRemovedPosition(level(0), removed);
        List<TableRecord> level0Block = new ArrayList<>();
        for (TableRecord t : edit.added()) {
            if (t.level() == 0) {
                level0Block.add(0, t);
            } else {
                out.get(t.level()).add(t);
            }
        }
        if (!level0Block.isEmpty()) {
            out.get(0).addAll(level0Position, level0Block);
        }
        for (int i = 1; i < levelCount; i++) {
            out.get(i).sort(BY_MIN_KEY);
        }
        while (!out.isEmpty() && out.get(out.size() - 1).isEmpty()) {
            out.remove(out.size() - 1);
        }
        List<List<TableRecord>> frozen = new ArrayList<>(out.size());
        for (List<TableRecord> level : out) {
            frozen.add(List.copyOf(level));
        }
        return new ComponentSet(List.copyOf(frozen), Collections.unmodifiableMap(live),
                Collections.unmodifiableMap(parentsAfter), edit.policy().orElse(policy), next, sequence, wal, segment);
    }

    private static long counter(String name, long current, OptionalLong value) {
        if (value.isEmpty()) {
            return current;
        }
        if (value.getAsLong() < current) {
            throw new IllegalStateException("edit moves " + name + " back from " + current + " to "
                    + value.getAsLong());
        }
        return value.getAsLong();
    }

    private static List<TableRecord> filtered(List<TableRecord> level, Set<Long> removed) {
        List<TableRecord> kept = new ArrayList<>(level.size());
        for (TableRecord t : level) {
            if (!removed.contains(t.fileNumber())) {
                kept.add(t);
            }
        }
        return kept;
    }

    /** Index of the first (newest) removed table in {@code level0}; equally its index once removals are done. */
    private static int newestRemovedPosition(List<TableRecord> level0, Set<Long> removed) {
        for (int i = 0; i < level0.size(); i++) {
            if (removed.contains(level0.get(i).fileNumber())) {
                return i;
            }
        }
        return 0;
    }

    /**
     * The edit that rebuilds this set from {@link #empty()}: every table (level 0 oldest first, so that
     * {@link #apply} restores newest first), the policy if any, and all three counters.
     *
     * @return the edit
     */
    ManifestEdit snapshot() {
        ManifestEdit.Builder b = ManifestEdit.builder();
        List<TableRecord> level0 = level(0);
        for (int i = level0.size() - 1; i >= 0; i--) {
            b.addTable(level0.get(i));
        }
        for (int i = 1; i < levels.size(); i++) {
            levels.get(i).forEach(b::addTable);
        }
        if (policy != null) {
            b.policy(policy);
        }
        b.nextFileNumber(nextFileNumber).lastSequence(lastSequence).walNumber(walNumber);
        if (walSegment > 0) {
            b.walSegment(walSegment);
        }
        return b.build();
    }

    /**
     * {@return the levels, index = level number; level 0 newest first, deeper levels by {@code minKey}} Unmodifiable.
     */
    public List<List<TableRecord>> levels() {
        return levels;
    }

    /**
     * Level 0 as components, newest first. A component is usually one table; a merge split by key writes one
     * table per key range, and those tables, adjacent in level 0, with the same flushes and disjoint keys
     * ({@link TableRecord#sharesComponentWith}), are one component: one sorted run to the policy and to reads.
     *
     * @return the components, each its tables ascending by key; unmodifiable
     */
    public List<List<TableRecord>> level0Components() {
        List<List<TableRecord>> out = new ArrayList<>();
        List<TableRecord> current = new ArrayList<>();
        for (TableRecord t : level(0)) {
            if (!current.isEmpty() && !current.stream().allMatch(t::sharesComponentWith)) {
                out.add(sortedByKey(current));
                current = new ArrayList<>();
            }
            current.add(t);
        }
        if (!current.isEmpty()) {
            out.add(sortedByKey(current));
        }
        return Collections.unmodifiableList(out);
    }

    private static List<TableRecord> sortedByKey(List<TableRecord> tables) {
        tables.sort(BY_MIN_KEY);
        return List.copyOf(tables);
    }

    /**
     * {@return level {@code n}'s tables (an empty list past the deepest level)}
     *
     * @param n a count
     */
    public List<TableRecord> level(int n) {
        return n < levels.size() ? levels.get(n) : List.of();
    }

    /**
     * {@return the table with {@code fileNumber} in a level (real or virtual), if any}
     *
     * @param fileNumber the table's file number
     */
    public Optional<TableRecord> table(long fileNumber) {
        return Optional.ofNullable(byNumber.get(fileNumber));
    }

    /** {@return the real tables live virtual tables point at (in no level), by file number} Unmodifiable. */
    public Map<Long, TableRecord> parents() {
        return parents;
    }

    /**
     * The numbers of the SSTable files that must exist: the real tables of the levels and the parents of the
     * virtual ones. Unordered.
     *
     * @return the file numbers
     */
    public Set<Long> fileNumbers() {
        Set<Long> files = new HashSet<>(parents.keySet());
        for (TableRecord t : byNumber.values()) {
            if (!t.isVirtual()) {
                files.add(t.fileNumber());
            }
        }
        return Collections.unmodifiableSet(files);
    }

    /** {@return number of tables in the levels (virtual ones included, their parents not)} */
    public int tableCount() {
        return byNumber.size();
    }

    /** {@return the policy record (name and state), or empty if none} Outside this package: PolicyRecord.recordedIn. */
    Optional<PolicyRecord> policy() {
        return Optional.ofNullable(policy);
    }

    /** {@return the next file number to hand out; above every live file number} */
    public long nextFileNumber() {
        return nextFileNumber;
    }

    /** {@return the last sequence number recorded} */
    public long lastSequence() {
        return lastSequence;
    }

    /** {@return the oldest live write-ahead log's number; 0 if none has been recorded} */
    public long walNumber() {
        return walNumber;
    }

    /**
     * The write-ahead-log segment that must exist, or 0 if none: the oldest live segment ({@link #walNumber()})
     * when the store recorded that it created it (its log was on). Its records are not in any table yet, so a
     * store without it has lost them. With the log off, or in a manifest written before segments were recorded,
     * no segment is required.
     *
     * @return the segment number, or 0
     */
    public long requiredWalSegment() {
        return walNumber > 0 && walSegment == walNumber ? walNumber : 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ComponentSet c && levels.equals(c.levels) && Objects.equals(policy, c.policy)
                && nextFileNumber == c.nextFileNumber && lastSequence == c.lastSequence && walNumber == c.walNumber
                && walSegment == c.walSegment;
    }

    @Override
    public int hashCode() {
        return ((levels.hashCode() * 31 + Long.hashCode(nextFileNumber)) * 31 + Long.hashCode(lastSequence)) * 31
                + Long.hashCode(walNumber);
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("ComponentSet[next=").append(nextFileNumber).append(", lastSequence=")
                .append(lastSequence).append(", wal=").append(walNumber).append(", walSegment=").append(walSegment)
                .append(", policy=")
                .append(policy == null ? "none" : policy.name());
        for (int i = 0; i < levels.size(); i++) {
            s.append(", L").append(i).append('=');
            List<Long> numbers = new ArrayList<>();
            for (TableRecord t : levels.get(i)) {
                numbers.add(t.fileNumber());
            }
            s.append(numbers);
        }
        return s.append(']').toString();
    }
}
