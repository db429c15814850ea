package io.lsmpolicies.merge.policy;

import static io.lsmpolicies.merge.TestPolicies.policy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.PolicyConfigurationException;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The rent-or-buy rule of {@link AdaptivePolicy}, its bound, its parameters and its state. */
class AdaptivePolicyTest {

    /** Drives a stack policy through the protocol, applying its merges; SSTables newest first. */
    private static final class Driver {
        final MergePolicy policy;
        final boolean restartEveryFlush;
        final List<SSTableInfo> stack = new ArrayList<>();
        final List<List<Long>> merges = new ArrayList<>();
        final List<String> reasons = new ArrayList<>();
        PolicyState state;
        long nextId = 1;
        long flushes;

        Driver(MergePolicy policy, boolean restartEveryFlush) {
            this.policy = policy;
            this.restartEveryFlush = restartEveryFlush;
            this.state = policy.initialState();
        }

        void flush(long size, long readsSinceLastFlush) {
            flushes++;
            stack.add(0, SSTableInfo.builder(nextId++).bytes(size).entries(size).flush(flushes).build());
            if (restartEveryFlush) {
                state = policy.decodeState(state.encode());
            }
            state = policy.onFlush(state, TreeView.stackOf(stack), readsSinceLastFlush);
            decideAll();
        }

        void decideAll() {
            while (true) {
                Decision d = policy.decide(TreeView.stackOf(stack), state);
                state = d.state();
                if (d.jobs().isEmpty()) {
                    return;
                }
                for (MergeJob job : d.jobs()) {
                    List<Long> ids = new ArrayList<>();
                    int at = stack.indexOf(job.inputs().get(0));
                    for (SSTableInfo in : job.inputs()) {
                        assertThat(stack.get(at)).isEqualTo(in); // contiguous, newest first
                        stack.remove(at);
                        ids.add(in.id());
                    }
                    long first = job.inputs().get(job.inputs().size() - 1).minFlushIndex();
                    long last = job.inputs().get(0).maxFlushIndex();
                    stack.add(at, SSTableInfo.builder(nextId++).bytes(job.inputBytes()).entries(job.inputBytes())
                            .flushes(first, last).build());
                    merges.add(ids);
                    reasons.add(job.reason());
                }
            }
        }

        void readsBetweenFlushes(long reads) {
            PolicyState next = policy.onReads(state, TreeView.stackOf(stack), reads);
            assertThat(next).isNotSameAs(state);
            state = next;
            decideAll();
        }

        List<Long> sizesNewestFirst() {
            return stack.stream().map(SSTableInfo::bytes).toList();
        }
    }

    @Test
    void withoutReadsItNeverMergesBelowMaxK() {
        Driver d = new Driver(policy("adaptive"), false);
        for (int i = 0; i < 300; i++) {
            d.flush(1000, 0);
        }
        assertThat(d.stack).hasSize(300);
        assertThat(d.merges).isEmpty();
    }

    @Test
    void maxKBoundsTheStackWithTheCheapestRun() {
        MergePolicy p = policy("adaptive", "max-k", 3);
        Driver d = new Driver(p, false);
        d.flush(100, 0);
        d.flush(10, 0);
        d.flush(50, 0);
        // 4 SSTables: newest first 20, 50, 10, 100. The fresh flush merges for free in its own step, so the cheapest
        // pair is 20 + 50 (50 bytes more than the flush alone), not 50 + 10 (60).
        d.flush(20, 0);
        assertThat(d.sizesNewestFirst()).containsExactly(70L, 10L, 100L);
        assertThat(p.isMergeLagging(TreeView.stackOf(d.stack), d.state)).isFalse();
        for (int i = 0; i < 50; i++) {
            d.flush(7 + i, 0);
            assertThat(d.stack).hasSizeLessThanOrEqualTo(3);
        }
    }

    @Test
    void aRunIsMergedOnceItsRentReachesItsPrice() {
        // read-cost 1: rent = reads met. Three flushes of 100 without reads (nothing to weigh: no merge), then R reads
        // between flushes (a read-only phase; the tree places flushes only, so only break-even can act). Every SSTable
        // has met R reads, and each extra SSTable is charged R more for the coming step (the latest report's count).
        // [C,B]: price 200, rent 2R; [C,B,A]: price 300, rent 4R; [B,A]: price 200, rent 2R.
        for (long reads : new long[] {74, 75}) {
            Driver d = new Driver(policy("adaptive", "read-cost", 1), false);
            d.flush(100, 0);
            d.flush(100, 0);
            d.flush(100, 0);
            assertThat(d.merges).isEmpty();
            d.readsBetweenFlushes(reads);
            if (reads == 74) {
                assertThat(d.merges).as("4 x 74 < 300").isEmpty();
            } else {
                assertThat(d.merges).as("4 x 75 >= 300, and it removes the most SSTables")
                        .containsExactly(List.of(3L, 2L, 1L));
                assertThat(d.sizesNewestFirst()).containsExactly(300L);
            }
        }
    }

    @Test
    void theMergedOutputStartsWithoutRent() {
        Driver d = new Driver(policy("adaptive", "read-cost", 1), false);
        d.flush(100, 0);
        d.flush(100, 0);
        d.flush(100, 0);
        d.readsBetweenFlushes(75); // merges everything into one SSTable of 300
        d.flush(100, 0); // the output has met no read since it appeared, and none were reported since: no merge
        assertThat(d.sizesNewestFirst()).containsExactly(100L, 300L);
    }

    @Test
    void whenATableCostsOneFlushAStepTheTreeIsTheBinaryCounter() {
        // Flushes of 4096 bytes, one read after each, 4096 bytes a probe: one more SSTable costs one flush length a
        // step (c = 1), so Tree(b) = Tree(b - 1), root, Tree(b - 1): the least-cost tree doubles, and the stack is the
        // binary counter: sizes (in flushes, newest first) after flushes 2..8 below. The first flush has no rate yet.
        Driver d = new Driver(policy("adaptive", "read-cost", 4096), false);
        d.flush(4096, 0);
        long[][] expected = {{2}, {1, 2}, {4}, {1, 4}, {2, 4}, {1, 2, 4}, {8}, {1, 8}, {2, 8}, {1, 2, 8}, {4, 8},
            {1, 4, 8}, {2, 4, 8}, {1, 2, 4, 8}, {16}};
        for (long[] sizes : expected) {
            d.flush(4096, 1);
            assertThat(d.sizesNewestFirst()).as("after flush " + d.flushes)
                    .containsExactly(java.util.Arrays.stream(sizes).map(x -> x * 4096).boxed().toArray(Long[]::new));
        }
    }

    /** Heavy-tailed flush lengths: Pareto, shape 1.5, minimum 1/3 MB (mean 1 MB), capped at 200 MB. */
    private static long paretoLength(SplittableRandom random) {
        return Math.min(200_000_000L, Math.round(333_333 / Math.pow(1 - random.nextDouble(), 1 / 1.5)));
    }

    @Test
    void inASteadyPhaseTheBreakEvenRuleWaitsWhileTheTreeLeavesTheFlushAlone() {
        // 100 reads a flush of about 1 MB at 4096 bytes a probe: one more SSTable costs c = 0.41 flush lengths a step,
        // a payback period is 1 / c = 2.4 flushes, so after 4 of them (about 10 flushes) at a steady rate the
        // break-even rule acts only in steps where the flush is no longer alone (the tree merged it first). With
        // heavy-tailed lengths it would otherwise buy runs the tree had priced, in steps the tree merges nothing.
        SplittableRandom random = new SplittableRandom(1000);
        Driver d = new Driver(policy("adaptive"), false);
        List<Long> breakEvenAlone = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            int before = d.reasons.size();
            d.flush(paretoLength(random), i == 0 ? 0 : 100);
            List<String> step = d.reasons.subList(before, d.reasons.size());
            if (d.flushes > 20 && !step.isEmpty() && step.get(0).startsWith("rent ")) {
                breakEvenAlone.add(d.flushes);
            }
        }
        assertThat(d.reasons).anyMatch(r -> r.startsWith("tree: "));
        assertThat(breakEvenAlone).as("steps past flush 20 whose first merge is a break-even one").isEmpty();
    }

    @Test
    void aSurgeOfReadsTurnsTheBreakEvenRuleBackOn() {
        // A steady phase of 10 reads a flush (c = 0.04), then 1,000 (c = 4): the rate jumps above 1.5 times its slow
        // average, and the SSTables the tree kept for the old rate are bought back by break-even.
        Driver d = new Driver(policy("adaptive"), false);
        for (int i = 0; i < 200; i++) {
            d.flush(1_000_000, i == 0 ? 0 : 10);
        }
        int before = d.reasons.size();
        int kept = d.stack.size();
        for (int i = 0; i < 10; i++) {
            d.flush(1_000_000, 1000);
        }
        assertThat(kept).as("the tree keeps several SSTables at 10 reads a flush").isGreaterThan(4);
        assertThat(d.reasons.subList(before, d.reasons.size())).as("merges after the surge")
                .anyMatch(r -> r.startsWith("rent "));
        assertThat(((ReadLedger) d.state).rate()).isGreaterThan(1.5 * ((ReadLedger) d.state).slowRate());
    }

    @Test
    void aQuietStretchFollowsMinLatencyWithQuietK() {
        // Reads, then none: once the rate has decayed below 1% of its highest, the SSTables of the quiet stretch's
        // flushes keep at most MinLatency's count for k = quiet-k (counting from the stretch's first flush; the tree
        // may have merged some of them into older SSTables while the rate decayed). Without the bound (a huge quiet-k)
        // every quiet flush stays.
        Driver bounded = new Driver(policy("adaptive", "quiet-k", 3), false);
        Driver unbounded = new Driver(policy("adaptive", "quiet-k", 1_000_000), false);
        for (int i = 0; i < 20; i++) {
            bounded.flush(1000, 50);
            unbounded.flush(1000, 50);
        }
        long quietFrom = -1;
        for (int i = 0; i < 120; i++) {
            bounded.flush(1000, 0);
            unbounded.flush(1000, 0);
            ReadLedger l = (ReadLedger) bounded.state;
            if (l.quietFrom() < 0) {
                assertThat(quietFrom).as("a stretch stays quiet while nothing is read").isEqualTo(-1);
                continue;
            }
            quietFrom = l.quietFrom();
            long q = bounded.flushes - quietFrom + 1;
            long first = quietFrom;
            long quietTables = bounded.stack.stream().filter(t -> t.minFlushIndex() >= first).count();
            assertThat(quietTables).as("flush " + q + " of the quiet stretch")
                    .isLessThanOrEqualTo(Math.min(q, MinLatencyPolicy.target(3, q)));
        }
        assertThat(quietFrom).as("the stretch became quiet").isPositive();
        assertThat(bounded.stack).hasSizeLessThan(10);
        assertThat(unbounded.stack).hasSizeGreaterThan(50);
    }

    @Test
    void readsThatFallButDoNotStopLeaveTheStretchToTheLowRateRule() {
        // 1,000 reads a flush of 1 MB, then one: the rate falls below 1% of its highest, but reads go on. One read a
        // flush gives the low-rate rule a size ratio of 32, within quiet-k = 32, so no quiet stretch starts and
        // SSTables merge 32 at a time (Tiered), not on MinLatency's schedule (which writes every flush about twice).
        // With quiet-k = 8 the same reads are too few for tiers of 8: the stretch is quiet.
        Driver wide = new Driver(policy("adaptive"), false);
        Driver narrow = new Driver(policy("adaptive", "quiet-k", 8), false);
        for (int i = 0; i < 60; i++) {
            wide.flush(1_000_000, 1000);
            narrow.flush(1_000_000, 1000);
        }
        int before = wide.reasons.size();
        for (int i = 0; i < 200; i++) {
            wide.flush(1_000_000, 1);
            narrow.flush(1_000_000, 1);
            assertThat(((ReadLedger) wide.state).quietFrom()).as("flush %d after the fall", i + 1).isEqualTo(-1);
        }
        // While the rate estimate decays from 1,000 (table rate 0.01 and above) the tree merges; then Tiered's rule.
        assertThat(wide.reasons.subList(before, wide.reasons.size())).anyMatch(r -> r.startsWith("low read rate"))
                .noneMatch(r -> r.startsWith("quiet stretch"));
        assertThat(((ReadLedger) narrow.state).quietFrom()).as("quiet with quiet-k = 8").isPositive();
        assertThat(narrow.reasons).anyMatch(r -> r.startsWith("quiet stretch"));
        // A step without reads starts a quiet stretch whatever the rule's ratio.
        wide.flush(1_000_000, 0);
        assertThat(((ReadLedger) wide.state).quietFrom()).isEqualTo(wide.flushes);
    }

    @Test
    void atALowReadRateSSTablesOfSimilarFlushCountsMergeTieredFashion() {
        // One read a flush of 1 MB at 4096 bytes a probe: c = 0.004096 flush lengths a probe per step, below 0.01, so
        // Tiered's rule with size ratio 32 (the power of two nearest 2 / sqrt(c) = 31.25) replaces the tree, whose
        // long runs of single flushes and late merges of the whole stack did not pay back at this rate.
        Driver d = new Driver(policy("adaptive"), false);
        for (int i = 0; i < 31; i++) {
            d.flush(1_000_000, 1);
        }
        assertThat(d.stack).hasSize(31);
        assertThat(d.merges).isEmpty();
        d.flush(1_000_000, 1);
        assertThat(d.sizesNewestFirst()).containsExactly(32_000_000L);
        assertThat(d.reasons).singleElement().asString().contains("Tiered with size ratio 32");
        for (int i = 0; i < 40; i++) {
            d.flush(1_000_000, 1);
        }
        // 72 flushes: two SSTables of 32 flushes and 8 single flushes, newest first.
        assertThat(d.stack).hasSize(10);
        assertThat(d.sizesNewestFirst().subList(8, 10)).containsExactly(32_000_000L, 32_000_000L);
        assertThat(d.merges).hasSize(2).allSatisfy(m -> assertThat(m).hasSize(32));
    }

    @Test
    void atALowReadRateALongFlushIsTieredByItsBytesInTypicalFlushLengths() {
        // One read a flush (table rate c = 0.004096, Tiered's size ratio 32), 32 single flushes of 1 MB, but flush 20
        // is 128 MB. Counted as one flush it would be in tier 0 with the 31 others, and the 32 would merge: 159 MB
        // written to remove 31 SSTables, of which 128 MB pay back only over 31,000 reads. Its bytes are 128 typical
        // (median) flush lengths, tier 1: no run of 32 SSTables in one tier, no merge. A flush of 1.5 MB is tier 0.
        for (long flush20 : new long[] {128_000_000, 1_500_000}) {
            List<SSTableInfo> tables = new ArrayList<>();
            long[] ids = new long[32];
            long[] marks = new long[32];
            for (int f = 32; f >= 1; f--) {
                tables.add(SSTableInfo.builder(f).bytes(f == 20 ? flush20 : 1_000_000).entries(1).flush(f).build());
                ids[32 - f] = f;
                marks[32 - f] = f - 1;
            }
            ReadLedger state = new ReadLedger(32, 1, 0, 32, 31, -1, 32, 1, 1, 1, 1_000_000, 0.004096, -1, 0, 0, ids,
                    marks, new double[32], new int[32]);
            Decision d = policy("adaptive").decide(TreeView.stackOf(tables), state);
            if (flush20 > 2_000_000) {
                assertThat(d.jobs()).as("the 128 MB flush is in tier 1").isEmpty();
                continue;
            }
            assertThat(d.jobs()).singleElement().satisfies(job -> {
                assertThat(job.inputs()).hasSize(32);
                assertThat(job.reason()).contains("Tiered with size ratio 32");
            });
        }
        List<SSTableInfo> mixed = List.of(
                SSTableInfo.builder(4).bytes(128_000_000).entries(1).flush(4).build(),
                SSTableInfo.builder(3).bytes(600_000).entries(1).flush(3).build(),
                SSTableInfo.builder(2).bytes(36_000_000).entries(1).flushes(1, 2).build());
        var stack = StackPolicies.stack("adaptive", TreeView.stackOf(mixed));
        // Bytes per flush 128 MB (1 flush), 0.6 MB (1), 18 MB (2): the median of the four flushes is 18 MB.
        assertThat(AdaptivePolicy.typicalFlushBytes(stack)).isEqualTo(18_000_000);
        assertThat(AdaptivePolicy.tierSize(stack.get(0), 18_000_000)).isEqualTo(7);
        assertThat(AdaptivePolicy.tierSize(stack.get(1), 18_000_000)).isEqualTo(1);
        assertThat(AdaptivePolicy.tierSize(stack.get(2), 18_000_000)).isEqualTo(2);
        assertThat(AdaptivePolicy.tierSize(stack.get(0), 0)).isEqualTo(1);
    }

    @Test
    void atALowReadRateAMergeThatWouldNotPayBackIsNotBought() {
        // Flush 405 at one read a flush: 11 SSTables of 32 flushes of 1 MB (built while B was 32) and 53 single flushes
        // of 1 MB. A long flush moved the mean length to 2.56 MB, so the table rate in use is 0.0016 and B is 64:
        // all 64 SSTables are in tier 0. Merging them, 405 MB to remove 63 SSTables (6.4 MB each, 6.4 typical
        // lengths), pays back over 6.4 MB / 4,096 bytes = 1,563 steps, more than 4 payback periods of a typical flush
        // and more than the 405 flushes seen: not bought. Seen 2,000 flushes, the same merge is bought.
        for (long seen : new long[] {405, 2000}) {
            List<SSTableInfo> tables = new ArrayList<>();
            long[] ids = new long[64];
            long[] marks = new long[64];
            for (int i = 0; i < 64; i++) {
                long id = 64 - i;
                tables.add(i < 53
                        ? SSTableInfo.builder(id).bytes(1_000_000).entries(1).flush(405 - i).build()
                        : SSTableInfo.builder(id).bytes(32_000_000).entries(1)
                                .flushes(1 + 32 * (63 - i), 32 * (64 - i)).build());
                ids[i] = id;
                marks[i] = i < 53 ? 404 - i : 32 * (64 - i) - 1;
            }
            double c = 0.0016;
            ReadLedger state = new ReadLedger(405, 1, 0, 64, 64, -1, seen, 1, 1, 1, 4096 / c, c, -1, 0, 0, ids,
                    marks, new double[64], new int[64]);
            assertThat(AdaptivePolicy.tieredRatio(c)).isEqualTo(64);
            Decision d = policy("adaptive").decide(TreeView.stackOf(tables), state);
            if (seen == 405) {
                assertThat(d.jobs()).as("pays back over 1,563 steps, 405 flushes seen").isEmpty();
                continue;
            }
            assertThat(d.jobs()).singleElement().satisfies(job -> {
                assertThat(job.inputs()).hasSize(64);
                assertThat(job.reason()).contains("Tiered with size ratio 64");
            });
        }
    }

    @Test
    void aMergeOutputIsSizedByTheFlushesItHoldsOrItsBytesIfFewer() {
        // Mean flush 1 MB. One flush of 40 MB is one node of the tree (1, not 40 mean lengths); 30 flushes that
        // updates shrank to 3 MB count as 3; 20 flushes of 1 MB as 20.
        List<SSTableInfo> tables = List.of(
                SSTableInfo.builder(3).bytes(40_000_000).entries(1).flush(51).build(),
                SSTableInfo.builder(2).bytes(3_000_000).entries(1).flushes(21, 50).build(),
                SSTableInfo.builder(1).bytes(20_000_000).entries(1).flushes(1, 20).build());
        var stack = StackPolicies.stack("adaptive", TreeView.stackOf(tables));
        assertThat(AdaptivePolicy.flushesOf(stack, 0, 0, 40_000_000, 1_000_000)).isEqualTo(1);
        assertThat(AdaptivePolicy.flushesOf(stack, 1, 1, 3_000_000, 1_000_000)).isEqualTo(3);
        assertThat(AdaptivePolicy.flushesOf(stack, 2, 2, 20_000_000, 1_000_000)).isEqualTo(20);
        assertThat(AdaptivePolicy.flushesOf(stack, 0, 2, 63_000_000, 1_000_000)).isEqualTo(51);
    }

    @Test
    void aLongFlushDoesNotGiveTheTreesMergeTheBudgetOfManyFlushes() {
        // 100 reads a flush of 1 MB at 4096 bytes a probe (c = 0.4096), past the first payback periods. The flush of
        // this step (id 10, 1 MB) finds below it an SSTable of one flush of 40 MB (id 9) with no right subtree left
        // (budget 0) and one pending node (gap 1), which has met 10,000 reads: the tree merges the two (rent 41 MB of
        // probes >= half the price of 40 MB). The output holds 2 flushes: its budget is that of a complete tree of 2
        // flushes, or its oldest input's plus one, whichever is larger; not that of a tree of 41 flushes, whose right
        // subtree would keep about 40 SSTables above it before merging them, and it again.
        List<SSTableInfo> tables = List.of(
                SSTableInfo.builder(10).bytes(1_000_000).entries(1).flush(31).build(),
                SSTableInfo.builder(9).bytes(40_000_000).entries(1).flush(30).build(),
                SSTableInfo.builder(8).bytes(29_000_000).entries(1).flushes(1, 29).build());
        double c = 4096 * 100 / 1e6;
        ReadLedger state = new ReadLedger(10_000, 100, 0, 10, 9, -1, 31, 100, 100, 100, 1_000_000, c, -1, 0, 0,
                new long[] {10, 9, 8}, new long[] {10_000, 0, 0}, new double[] {0, 0, 5}, new int[] {0, 1, 0});
        Decision d = policy("adaptive").decide(TreeView.stackOf(tables), state);
        assertThat(d.jobs()).singleElement().satisfies(job -> {
            assertThat(job.inputs()).extracting(SSTableInfo::id).containsExactly(10L, 9L);
            assertThat(job.reason()).startsWith("tree: ");
        });
        ReadLedger planned = (ReadLedger) d.state();
        assertThat(planned.planKey()).isEqualTo(9);
        assertThat(planned.planBudget()).isEqualTo(Math.max(1, BudgetTree.budgetOfSize(2, c)))
                .isLessThan(BudgetTree.budgetOfSize(41, c) - 2);
        assertThat(planned.planGap()).isZero();
    }

    @Test
    void aLongFlushBecomesTheTreesNextNodeAtOnce() {
        // 100 reads a flush of 1 MB (c = 0.4096), past the first payback periods, at a steady rate. The SSTable below
        // the flush of this step (id 9, one flush) still has a right subtree (budget 1.5 >= c): a flush of ordinary
        // length is a leaf of it, alone. A flush of at least twice the mean length becomes the nearest node not yet
        // created above it at once, merging the SSTables up to the first with a gap (id 8), as when the subtree is
        // complete: left alone, it would be merged with them later and its 3 MB written again.
        for (long flush : new long[] {1_500_000, 3_000_000}) {
            List<SSTableInfo> tables = List.of(
                    SSTableInfo.builder(10).bytes(flush).entries(1).flush(26).build(),
                    SSTableInfo.builder(9).bytes(1_000_000).entries(1).flush(25).build(),
                    SSTableInfo.builder(8).bytes(4_000_000).entries(1).flushes(21, 24).build(),
                    SSTableInfo.builder(7).bytes(20_000_000).entries(1).flushes(1, 20).build());
            double c = 4096 * 100 / 1e6;
            ReadLedger state = new ReadLedger(10_000, 100, 0, 10, 9, -1, 100, 100, 100, 100, 1_000_000, c, -1, 0, 0,
                    new long[] {10, 9, 8, 7}, new long[] {10_000, 9_000, 9_000, 0}, new double[] {0, 1.5, 2, 4},
                    new int[] {0, 0, 1, 0});
            Decision d = policy("adaptive").decide(TreeView.stackOf(tables), state);
            if (flush < 2_000_000) {
                assertThat(d.jobs()).as("a flush of 1.5 mean lengths is a leaf").isEmpty();
                continue;
            }
            assertThat(d.jobs()).singleElement().satisfies(job -> {
                assertThat(job.inputs()).extracting(SSTableInfo::id).containsExactly(10L, 9L, 8L);
                assertThat(job.reason()).startsWith("tree: ");
            });
            ReadLedger planned = (ReadLedger) d.state();
            assertThat(planned.planKey()).isEqualTo(8);
            assertThat(planned.planBudget()).isEqualTo(Math.max(3, BudgetTree.budgetOfSize(6, c)));
            assertThat(planned.planGap()).isZero();
        }
    }

    @Test
    void tieredRatioIsThePowerOfTwoNearestTwoOverTheRootOfTheRate() {
        assertThat(AdaptivePolicy.tieredRatio(0.004096)).isEqualTo(32);
        assertThat(AdaptivePolicy.tieredRatio(0.009)).isEqualTo(16);
        assertThat(AdaptivePolicy.tieredRatio(0.0001)).isEqualTo(256);
        assertThat(AdaptivePolicy.tieredRatio(1e-30)).isEqualTo(1 << 30);
    }

    @Test
    void manyReadsKeepOneSSTable() {
        Driver d = new Driver(policy("adaptive", "read-cost", 4096), false);
        d.flush(1_000_000, 0);
        for (int i = 0; i < 100; i++) {
            d.flush(1_000_000, 1_000_000);
            assertThat(d.stack).hasSize(1);
        }
    }

    @Test
    void aRestartedPolicyContinuesTheSameSchedule() {
        SplittableRandom random = new SplittableRandom(7);
        Driver straight = new Driver(policy("adaptive", "max-k", 12), false);
        Driver restarted = new Driver(policy("adaptive", "max-k", 12), true);
        for (int i = 0; i < 400; i++) {
            long size = random.nextLong(1, 2_000_000);
            long reads = i % 100 < 50 ? random.nextLong(0, 5) : random.nextLong(0, 2000);
            straight.flush(size, reads);
            restarted.flush(size, reads);
        }
        assertThat(straight.merges).isNotEmpty();
        assertThat(restarted.merges).isEqualTo(straight.merges);
        assertThat(restarted.state).isEqualTo(straight.state);
    }

    @Test
    void stateRoundTripsAndBadBytesAreRefusedWithThePolicyName() {
        MergePolicy p = policy("adaptive");
        ReadLedger ledger = new ReadLedger(50, 20, 9, new long[] {3, 9}, new long[] {0, 50});
        assertThat(p.decodeState(ledger.encode())).isEqualTo(ledger);
        byte[] bytes = ledger.encode();
        byte[] versioned = bytes.clone();
        versioned[0] = 9;
        assertThatThrownBy(() -> p.decodeState(versioned)).hasMessageContaining("adaptive")
                .hasMessageContaining("version 9");
        assertThatThrownBy(() -> p.decodeState(java.util.Arrays.copyOf(bytes, bytes.length - 1)))
                .hasMessageContaining("adaptive").hasMessageContaining("cannot hold 2 entries");
        assertThatThrownBy(() -> p.decodeState(new byte[3])).hasMessageContaining("adaptive");
        byte[] twice = new ReadLedger(50, 20, 9, new long[] {3, 3}, new long[] {0, 0}).encode();
        assertThatThrownBy(() -> p.decodeState(twice)).hasMessageContaining("adaptive")
                .hasMessageContaining("names an SSTable twice");
        assertThatThrownBy(() -> new ReadLedger(50, 20, 9, new long[] {3}, new long[] {51}))
                .hasMessageContaining("outside [0, 50]");
    }

    @Test
    void aVersionOneStateIsStillRead() {
        // Version 1 (before the tree): reads, lastReads, freshFlush, count, then id and mark per entry.
        byte[] v1 = java.nio.ByteBuffer.allocate(1 + 8 + 8 + 8 + 4 + 2 * 16).put((byte) 1).putLong(50).putLong(20)
                .putLong(9).putInt(2).putLong(9).putLong(50).putLong(3).putLong(0).array();
        ReadLedger l = (ReadLedger) policy("adaptive").decodeState(v1);
        assertThat(l).isEqualTo(new ReadLedger(50, 20, 9, new long[] {9, 3}, new long[] {50, 0}));
        assertThat(l.budgets()).containsExactly(0, 0);
        assertThat(l.rate()).isEqualTo(20);
        assertThat(policy("adaptive").decodeState(l.encode())).isEqualTo(l);
    }

    @Test
    void aVersionTwoStateIsStillReadWithItsRateAsTheSlowRate() {
        // Version 2: version 3 without slowRate (between maxRate and flushBytes).
        byte[] v2 = java.nio.ByteBuffer.allocate(1 + 7 * 8 + 4 * 8 + 8 + 8 + 4 + 4 + 28).put((byte) 2).putLong(50)
                .putLong(20).putLong(0).putLong(9).putLong(9).putLong(-1).putLong(4).putDouble(12.5).putDouble(30)
                .putDouble(1000).putDouble(0.05).putLong(-1).putDouble(0).putInt(0).putInt(1).putLong(9).putLong(30)
                .putDouble(2.5).putInt(1).array();
        ReadLedger l = (ReadLedger) policy("adaptive").decodeState(v2);
        assertThat(l).isEqualTo(new ReadLedger(50, 20, 0, 9, 9, -1, 4, 12.5, 30, 12.5, 1000, 0.05, -1, 0, 0,
                new long[] {9}, new long[] {30}, new double[] {2.5}, new int[] {1}));
        assertThat(l.slowRate()).isEqualTo(l.rate());
        byte[] v3 = l.encode();
        assertThat(v3[0]).isEqualTo((byte) 3);
        assertThat(v3).hasSize(v2.length + 8);
        ReadLedger other = new ReadLedger(50, 20, 0, 9, 9, -1, 4, 12.5, 30, 7.25, 1000, 0.05, -1, 0, 0,
                new long[] {9}, new long[] {30}, new double[] {2.5}, new int[] {1});
        assertThat(policy("adaptive").decodeState(other.encode())).isEqualTo(other).isNotEqualTo(l);
        assertThatThrownBy(() -> new ReadLedger(50, 20, 0, 9, 9, -1, 4, 12.5, 30, -1, 1000, 0.05, -1, 0, 0,
                new long[] {9}, new long[] {30}, new double[] {2.5}, new int[] {1})).hasMessageContaining("slowRate");
    }

    @Test
    void renamedEntriesKeepWhichFlushWasDecided() {
        // The Hyracks adapter renames entries to positions before each call: the newest SSTable is always 0. The
        // decided flush must follow its entry, or a new flush at position 0 would be taken as already placed.
        ReadLedger l = new ReadLedger(50, 20, 0, 7, 7, -1, 2, 20, 20, 20, 1000, 0.05, -1, 0, 0,
                new long[] {7, 3}, new long[] {50, 0}, new double[] {0, 1}, new int[] {0, 0});
        ReadLedger renamed = l.withIds(new long[] {1, 2}, 0);
        assertThat(renamed.decidedFlush()).isEqualTo(1);
        assertThat(renamed.freshFlush()).isZero();
        assertThat(l.withIds(new long[] {-1, 2}, 0).decidedFlush()).as("its SSTable is gone").isEqualTo(-1);
    }

    @Test
    void parametersHaveDefaultsAndRanges() {
        MergePolicy p = MergePolicies.create("adaptive", Map.of());
        assertThat(p.parameters().values()).containsEntry("max-k", 1000).containsEntry("read-cost", 4096L);
        assertThatThrownBy(() -> MergePolicies.parse("adaptive:max-k=0"))
                .isInstanceOf(PolicyConfigurationException.class).hasMessageContaining("max-k");
        assertThatThrownBy(() -> MergePolicies.parse("adaptive:read-cost=-1"))
                .isInstanceOf(PolicyConfigurationException.class).hasMessageContaining("read-cost");
    }

    @Test
    void negativeReadCountsAreRefused() {
        TreeView view = TreeView.stackOf(List.of(SSTableInfo.builder(1).bytes(5).build()));
        MergePolicy adaptive = policy("adaptive");
        assertThatThrownBy(() -> adaptive.onFlush(adaptive.initialState(), view, -1))
                .hasMessageContaining("adaptive").hasMessageContaining("-1");
        MergePolicy binomial = policy("binomial", "k", 3);
        assertThatThrownBy(() -> binomial.onFlush(binomial.initialState(), view, -1))
                .hasMessageContaining("binomial");
    }

    @Test
    void policiesThatIgnoreReadsAreUnchangedByThem() {
        for (String name : MergePolicies.names(io.lsmpolicies.merge.spi.PolicyLayout.STACK)) {
            if (name.equals("adaptive")) {
                continue;
            }
            MergePolicy p = MergePolicies.create(name, MergePolicies.factory(name).parameters().stream()
                    .filter(s -> s.required()).collect(java.util.stream.Collectors.toMap(s -> s.name(), s -> 3)));
            Driver without = new Driver(p, false);
            Driver with = new Driver(p, false);
            for (int i = 0; i < 60; i++) {
                without.flush(10 + i % 7, 0);
                with.flush(10 + i % 7, 1000 * i);
            }
            assertThat(with.merges).as(name).isEqualTo(without.merges);
        }
    }
}
