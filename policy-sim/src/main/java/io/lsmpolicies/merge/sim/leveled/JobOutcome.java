package io.lsmpolicies.merge.sim.leveled;

import io.lsmpolicies.merge.spi.MergeKind;
import java.util.List;

/**
 * What applying one merge job did to a {@link ModelTree}.
 *
 * @param kind         real merge or trivial move
 * @param outputLevel  the level that received the output
 * @param bytesRead    bytes of the inputs (0 for a trivial move, which reads nothing)
 * @param bytesWritten bytes of the output files (0 for a trivial move, which writes nothing)
 * @param outputs      the files now in {@code outputLevel} that the job produced (for a trivial move, the moved
 *                     file itself), ascending by key
 */
public record JobOutcome(MergeKind kind, int outputLevel, long bytesRead, long bytesWritten, List<ModelFile> outputs) {
    /**
     * Copies the outputs.
     *
     * @param kind         real merge or trivial move
     * @param outputLevel  the level that received the output
     * @param bytesRead    bytes of the inputs (0 for a trivial move, which reads nothing)
     * @param bytesWritten bytes of the output files (0 for a trivial move, which writes nothing)
     * @param outputs      the files now in {@code outputLevel} that the job produced (for a trivial move, the moved
     *                     file itself), ascending by key
     */
    public JobOutcome {
        outputs = List.copyOf(outputs);
    }
}
