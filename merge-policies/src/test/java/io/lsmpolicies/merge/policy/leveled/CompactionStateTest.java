package io.lsmpolicies.merge.policy.leveled;

import static io.lsmpolicies.merge.policy.leveled.LeveledViews.policy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.merge.policy.NoState;
import io.lsmpolicies.merge.spi.Key;
import io.lsmpolicies.merge.spi.MergePolicy;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The cursor state's encoding: round trip and each way it can break. */
class CompactionStateTest {
    static final MergePolicy RR = policy("leveled:picker=round-robin");

    @Test
    void roundTripsThroughItsEncoding() {
        CompactionState s = new CompactionState(Map.of(3, Key.of("m"), 1, Key.of(new byte[] {0, (byte) 0xff})));
        byte[] bytes = s.encode();
        assertThat(bytes).hasSize(5 + 8 + 2 + 8 + 1);
        assertThat(bytes[0]).isEqualTo((byte) 1);
        assertThat(RR.decodeState(bytes)).isEqualTo(s);
        assertThat(s.cursors().keySet()).as("ascending levels").containsExactly(1, 3);
        assertThat(CompactionState.EMPTY.encode()).containsExactly(1, 0, 0, 0, 0);
        assertThat(RR.decodeState(CompactionState.EMPTY.encode())).isEqualTo(CompactionState.EMPTY);
        assertThat(new CompactionState(Map.of(2, Key.EMPTY)).cursor(2)).isEqualTo(Key.EMPTY);
    }

    @Test
    void aFlippedVersionByteATruncatedTailABadLengthOrTrailingBytesAreReported() {
        byte[] good = new CompactionState(Map.of(1, Key.of("abc"))).encode();
        byte[] version = good.clone();
        version[0] = 2;
        assertThatThrownBy(() -> RR.decodeState(version))
                .hasMessage("policy 'leveled': unknown cursor state version 2");
        assertThatThrownBy(() -> RR.decodeState(Arrays.copyOf(good, good.length - 1)))
                .hasMessageStartingWith("policy 'leveled': cursor 0 of the state has level 1 and length 3 with 2 bytes");
        assertThatThrownBy(() -> RR.decodeState(Arrays.copyOf(good, 3)))
                .hasMessage("policy 'leveled': cursor state truncated at 3 bytes");
        byte[] length = good.clone();
        length[12] = 9; // the key's length
        assertThatThrownBy(() -> RR.decodeState(length)).hasMessageContaining("length 9 with 3 bytes left");
        byte[] count = good.clone();
        count[4] = 7;
        assertThatThrownBy(() -> RR.decodeState(count)).hasMessage("policy 'leveled': cursor state claims 7 cursors "
                + "in 16 bytes");
        byte[] level = good.clone();
        level[8] = 0;
        assertThatThrownBy(() -> RR.decodeState(level)).hasMessageContaining("has level 0");
        assertThatThrownBy(() -> RR.decodeState(Arrays.copyOf(good, good.length + 1)))
                .hasMessage("policy 'leveled': cursor state has 1 trailing bytes");
        assertThatThrownBy(() -> RR.decodeState(new byte[0])).hasMessageContaining("truncated at 0 bytes");
    }

    @Test
    void anotherPolicysStateIsRefusedNamingThePolicy() {
        assertThatThrownBy(() -> RR.decide(LeveledViews.view(java.util.List.of()), NoState.INSTANCE))
                .hasMessage("policy 'leveled' expects a cursor state, was INSTANCE");
        assertThatThrownBy(() -> new CompactionState(Map.of(0, Key.of("a")))).hasMessageContaining("level >= 1");
    }
}
