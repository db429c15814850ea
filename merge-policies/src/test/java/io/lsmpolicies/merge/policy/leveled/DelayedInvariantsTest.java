package io.lsmpolicies.merge.policy.leveled;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.PolicyParameters;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code delayed} driven on {@link TreeModel}, which executes virtual jobs as the engine does (one virtual file
 * over the inputs' key range, parents flattened): with {@code vct = 0} every answer of a whole run, merges side by
 * side, equals the wrapped policy's; with {@code vct > 0} the levels stay sorted, bytes are conserved, no virtual
 * file gathers {@code vct} real parents, the tree settles, and reads materialise every virtual file of
 * {@code vsmt} parents or more.
 */
class DelayedInvariantsTest {

    /** Every spec of {@link LeveledInvariantsTest}, wrapped. */
    static Stream<String> wrappedSpecs() {
        return LeveledInvariantsTest.policies();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wrappedSpecs")
    void withVctZeroEveryAnswerOfARunIsTheWrappedPolicys(String wrappedSpec) {
        Twin twin = new Twin(MergePolicies.parse(DelayedPolicyTest.delayed(wrappedSpec, "vct=0")),
                MergePolicies.parse(wrappedSpec));
        TreeModel m = new TreeModel(twin, wrappedSpec, 29, 5);
        Random events = new Random(5);
        int flushes = 0;
        while (flushes < LeveledInvariantsTest.FLUSHES) {
            if (!m.idle() && (m.lagging() || events.nextInt(3) == 0)) {
                m.finishAny();
            } else {
                m.flush();
                flushes++;
            }
            m.schedule();
        }
        assertThat(twin.decisions).as("decisions compared").isGreaterThan(LeveledInvariantsTest.FLUSHES);
        assertThat(m.virtualJobs).isZero();
    }

    static Stream<String> delayedSpecs() {
        String shape = LeveledInvariantsTest.SHAPE.replaceAll(",tombstone.*", "");
        return Stream.of("delayed:vct=6,vsmt=3," + shape,
                "delayed:vct=12,vsmt=5," + shape,
                "delayed:vct=6,vsmt=3,picker=round-robin," + shape,
                "delayed:vct=8,vsmt=4,policy=one-leveling," + shape,
                "delayed:vct=20,vsmt=6,policy=full-leveling," + shape,
                "delayed:vct=6,vsmt=3,policy=universal,l0-trigger=4,l0-stop-trigger=8,num-levels=5");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("delayedSpecs")
    void virtualMergesKeepTheLevelsSortedAndBoundedAndReadsMaterialiseWhatVsmtAsks(String spec) {
        DelayedPolicy p = (DelayedPolicy) MergePolicies.parse(spec);
        TreeModel m = new TreeModel(p, spec, 17, 5);
        long flushed = 0;
        int materialised = 0;
        for (int i = 0; i < LeveledInvariantsTest.FLUSHES; i++) {
            m.flush();
            flushed += m.level(0).get(0).bytes();
            m.settleSequentially();
            assertParentsBelowVct(m, p, spec);
            // A read meets every virtual file: those of vsmt parents or more are materialised, in their level.
            for (SSTableInfo t : virtualFiles(m)) {
                Optional<MergeJob> job = p.onVirtualRead(m.view(), m.state(), t);
                assertThat(job.isPresent()).as("%s: materialise %s", spec, t).isEqualTo(t.parents() >= p.vsmt());
                if (job.isPresent()) {
                    m.start(job.get());
                    m.finish(m.runningJobs() - 1);
                    materialised++;
                }
            }
            assertThat(virtualFiles(m)).as("%s: virtual files left after reads", spec)
                    .allMatch(t -> t.parents() < p.vsmt());
            m.settleSequentially();
            assertThat(p.decide(m.view(), m.state()).jobs()).as("%s asks for more when settled", spec).isEmpty();
            assertThat(m.totalBytes()).as("bytes are conserved").isEqualTo(flushed);
        }
        assertThat(m.virtualJobs).as("%s ran virtual merges", spec).isGreaterThan(10);
        assertThat(m.realJobs).as("%s ran real merges", spec).isGreaterThan(0);
        assertThat(materialised).as("%s materialised", spec).isGreaterThan(0);
    }

    private static List<SSTableInfo> virtualFiles(TreeModel m) {
        List<SSTableInfo> out = new ArrayList<>();
        for (int n = 0; n < 5; n++) {
            for (SSTableInfo t : m.level(n)) {
                if (t.virtual()) {
                    out.add(t);
                }
            }
        }
        return out;
    }

    private static void assertParentsBelowVct(TreeModel m, DelayedPolicy p, String spec) {
        assertThat(virtualFiles(m)).as("%s: a virtual file points at fewer than vct real ones", spec)
                .allMatch(t -> t.parents() < p.vct());
    }

    /** Answers as {@code delayed} and checks that {@code wrapped} answers the same, call by call. */
    private static final class Twin implements MergePolicy {
        private final MergePolicy delayed;
        private final MergePolicy wrapped;
        int decisions;

        Twin(MergePolicy delayed, MergePolicy wrapped) {
            this.delayed = delayed;
            this.wrapped = wrapped;
        }

        @Override
        public String name() {
            return delayed.name();
        }

        @Override
        public PolicyParameters parameters() {
            return delayed.parameters();
        }

        @Override
        public PolicyState initialState() {
            assertThat(delayed.initialState()).isEqualTo(wrapped.initialState());
            return delayed.initialState();
        }

        @Override
        public PolicyState decodeState(byte[] encoded) {
            assertThat(delayed.decodeState(encoded)).isEqualTo(wrapped.decodeState(encoded));
            return delayed.decodeState(encoded);
        }

        @Override
        public PolicyState onFlush(PolicyState state, TreeView view) {
            assertThat(delayed.onFlush(state, view)).isEqualTo(wrapped.onFlush(state, view));
            return delayed.onFlush(state, view);
        }

        @Override
        public Decision decide(TreeView view, PolicyState state) {
            Decision d = delayed.decide(view, state);
            assertThat(d).isEqualTo(wrapped.decide(view, state));
            decisions++;
            return d;
        }

        @Override
        public boolean isMergeLagging(TreeView view, PolicyState state) {
            assertThat(delayed.isMergeLagging(view, state)).isEqualTo(wrapped.isMergeLagging(view, state));
            return delayed.isMergeLagging(view, state);
        }
    }
}
