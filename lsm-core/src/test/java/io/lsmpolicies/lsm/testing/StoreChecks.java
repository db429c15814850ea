package io.lsmpolicies.lsm.testing;

import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreVerifier;
import io.lsmpolicies.lsm.manifest.StoreFiles;
import io.lsmpolicies.lsm.testing.OpenFiles.OpenFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The {@link StoreCheck}s on one directory holding {@code CURRENT} or {@code LOCK}, which it only reads. The store
 * is verified, and its level order checked, only if it has both: {@code LOCK} says a store was opened there
 * ({@code LsmStore.open} creates it), so a manifest a test wrote by hand, with records of tables it never wrote, is
 * not taken for a damaged store; {@code CURRENT} says the open got as far as creating the store. A store still open
 * is not verified either: its files may change under the verifier. Every such directory is checked for
 * {@link StoreCheck#RELEASED}.
 */
final class StoreChecks {
    private StoreChecks() {
    }

    /**
     * What is wrong with the store in {@code dir}: one line per problem, each starting with its check's name.
     *
     * @param open the files this process holds open, or null if the system does not tell (then
     *             {@link StoreCheck#RELEASED} is not checked, and the store is verified as if closed)
     * @param skip the checks not to run
     */
    static List<String> run(Path dir, List<OpenFile> open, Set<StoreCheck> skip) throws IOException {
        List<String> failures = new ArrayList<>();
        Path real = dir.toRealPath();
        List<OpenFile> held = open == null ? List.of()
                : open.stream().filter(f -> real.equals(f.path().getParent())).toList();
        boolean storeOpen = held.stream().anyMatch(f -> f.path().getFileName().toString().equals(LsmStore.LOCK_FILE));
        if (!held.isEmpty() && !skip.contains(StoreCheck.RELEASED)) {
            String files = held.stream().map(OpenFile::describe).sorted().collect(Collectors.joining(", "));
            failures.add(StoreCheck.RELEASED + ": " + (storeOpen
                    ? "the store is still open (this process holds " + files + "): close every store, and every "
                            + "server holding one, that the test opens; not verified while open"
                    : "the store is closed but this process still holds " + files + " open: a table reader, "
                            + "iterator or file the test or the store did not close"));
        }
        if (storeOpen || !Files.exists(dir.resolve(StoreFiles.CURRENT))
                || !Files.exists(dir.resolve(LsmStore.LOCK_FILE))) {
            return failures;
        }
        // The verifier checks the level order too: those problems are reported under LEVEL_ORDER, the others under
        // VERIFIER, so that a test can skip one check without the other.
        StoreVerifier.Report report = StoreVerifier.verify(dir);
        if (!skip.contains(StoreCheck.LEVEL_ORDER)) {
            report.levelOrder().forEach(p -> failures.add(StoreCheck.LEVEL_ORDER + ": " + p));
        }
        if (!skip.contains(StoreCheck.VERIFIER)) {
            for (String p : report.problems()) {
                if (!report.levelOrder().contains(p)) {
                    failures.add(StoreCheck.VERIFIER + ": " + p);
                }
            }
        }
        return failures;
    }
}
