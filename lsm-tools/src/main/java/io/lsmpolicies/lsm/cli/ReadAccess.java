package io.lsmpolicies.lsm.cli;

import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.lsm.manifest.StoreFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * How {@code get}, {@code scan} and {@code stats} open a store: read-only ({@link LsmStore#openReadOnly}). They
 * never create a store and never change a byte of one: the write-ahead log is replayed in memory, nothing is
 * flushed, no manifest is written and no orphan deleted, so they work on a full disk or a read-only directory, and
 * the merge schedule the store's loads follow is untouched. {@code --policy} and {@code --param} are still
 * checked when given (so a typo is reported) but have no effect on a read.
 */
final class ReadAccess {
    private ReadAccess() {
    }

    /**
     * Opens the store in {@code dir} read-only.
     *
     * @throws ParameterException if {@code dir} holds no store or the policy options are bad
     * @throws IOException        if the store cannot be opened (damaged, open for writing in another process, I/O)
     */
    static LsmStore open(CommandLine commandLine, Path dir, PolicyOptions policyOptions) throws IOException {
        if (!Files.isRegularFile(dir.resolve(StoreFiles.CURRENT))) {
            throw new ParameterException(commandLine, "--dir " + dir + " holds no store (it has no "
                    + StoreFiles.CURRENT + " file)");
        }
        if (policyOptions.given()) {
            policyOptions.resolve(commandLine, StoreOptions.DEFAULT_POLICY);
        }
        return LsmStore.openReadOnly(dir, StoreOptions.defaults());
    }
}
