package io.lsmpolicies.lsm.cli;

import io.lsmpolicies.lsm.CorruptionException;
import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.lsm.manifest.Manifest;
import io.lsmpolicies.lsm.manifest.Recovered;
import io.lsmpolicies.lsm.manifest.StoreFiles;
import io.lsmpolicies.lsm.manifest.StoredOptions;
import io.lsmpolicies.lsm.wal.SyncMode;
import io.lsmpolicies.lsm.wal.WalReplay;
import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.spi.MergePolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * How {@code get}, {@code scan} and {@code stats} open a store: they never create one, and they never change
 * the merge schedule the store's loads follow.
 *
 * <p>Why the policy matters to a reading command: opening a store replays its write-ahead log and flushes what it
 * replays, and a flush records the opening policy's name and state in the manifest, replacing the store's own
 * (for example Binomial's flush counter). The manifest keeps a policy's name and state but not its parameters,
 * so the store's policy cannot be rebuilt from it. Hence: with {@code --policy} the store is opened with that
 * policy; without it, a store whose log holds no unflushed write is opened with {@code no-merge} (nothing is
 * flushed, so the manifest's policy record is untouched and no merge starts), and a store with unflushed writes
 * is refused with a message asking for {@code --policy}. A store that recorded its policy (its {@code OPTIONS}
 * file) is opened with that policy, so none of this applies to it.
 */
final class ReadAccess {
    /** The policy a reading command opens a store with when none is given: it never merges. */
    static final String READ_POLICY = "no-merge";

    private ReadAccess() {
    }

    /**
     * Opens the store in {@code dir} for reading (without a write-ahead log: a reading command writes nothing).
     *
     * @throws ParameterException if {@code dir} holds no store, the policy options are bad, or (without
     *                            {@code --policy}) the store holds unflushed writes
     * @throws IOException        if the store cannot be opened (damaged, open in another process, I/O)
     */
    static LsmStore open(CommandLine commandLine, Path dir, PolicyOptions policyOptions) throws IOException {
        if (!Files.isRegularFile(dir.resolve(StoreFiles.CURRENT))) {
            throw new ParameterException(commandLine, "--dir " + dir + " holds no store (it has no "
                    + StoreFiles.CURRENT + " file)");
        }
        MergePolicy policy;
        Optional<StoredOptions> stored = LsmStore.storedOptions(dir);
        if (policyOptions.given()) {
            policy = policyOptions.resolve(commandLine, StoreOptions.DEFAULT_POLICY);
        } else if (stored.isPresent()) { // the store's own policy: nothing to switch, whatever is flushed
            policy = MergePolicies.create(stored.get().policy());
        } else {
            Recovered recovered = Manifest.recover(dir);
            long unflushed = unflushedWrites(recovered);
            if (unflushed > 0) {
                String named = recovered.set().policy().map(p -> "The manifest names policy '" + p.name()
                        + "' but not its parameters: give").orElse("Give");
                throw new ParameterException(commandLine, "the store in " + dir + " holds " + unflushed
                        + " writes not yet flushed (a crash or an unclosed load); opening it flushes them and records "
                        + "the opening policy in the manifest. " + named + " --policy and --param as the load did, "
                        + "e.g. --policy binomial --param k=6");
            }
            policy = MergePolicies.parse(READ_POLICY);
        }
        return LsmStore.open(dir, StoreOptions.builder().policy(policy).walMode(SyncMode.OFF).build());
    }

    /** Writes in the log segments that no table holds yet (a segment without a header holds none). */
    private static long unflushedWrites(Recovered recovered) throws IOException {
        long lastFlushed = recovered.set().lastSequence();
        long[] count = {0};
        for (Path segment : recovered.walSegments()) {
            try {
                WalReplay.replay(segment, batch -> batch.entries().forEach(e -> {
                    if (e.sequence() > lastFlushed) {
                        count[0]++;
                    }
                }));
            } catch (CorruptionException e) {
                if (e.code() != CorruptionException.Code.TRUNCATED_HEADER) {
                    throw e;
                }
            }
        }
        return count[0];
    }
}
