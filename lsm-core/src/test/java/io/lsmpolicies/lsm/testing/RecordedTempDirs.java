package io.lsmpolicies.lsm.testing;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDirFactory;

/**
 * The default factory of every {@code @TempDir} where {@link StoreInvariants} runs (the module's
 * {@code junit-platform.properties} names it in {@code junit.jupiter.tempdir.factory.default}): it creates the
 * directory as JUnit's standard factory does and records it in the extension context JUnit creates it for, which is
 * also the context whose end deletes it: a test's (instance fields, parameters of the test and of its
 * {@code @BeforeEach} and {@code @AfterEach} methods) or a class's (static fields, parameters of
 * {@code @BeforeAll} and {@code @AfterAll}). {@link StoreInvariants} checks the stores under a test's directories
 * after that test, and those under a class's directories after the class. A test's own factory records what it
 * creates with {@link #record}.
 */
public final class RecordedTempDirs implements TempDirFactory {
    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(RecordedTempDirs.class);

    @Override
    public Path createTempDirectory(AnnotatedElementContext element, ExtensionContext context) throws Exception {
        return record(context, TempDirFactory.Standard.INSTANCE.createTempDirectory(element, context));
    }

    /** Records {@code dir}, created for {@code context}, so that its stores are checked when the context ends. */
    public static Path record(ExtensionContext context, Path dir) {
        directories(context).add(dir);
        return dir;
    }

    /** The directories created for {@code context} itself (not for its parents), in creation order. */
    static List<Path> recorded(ExtensionContext context) {
        return List.copyOf(directories(context));
    }

    /** Keyed by the context's id: a store lookup also sees its parents' values, which belong to other contexts. */
    @SuppressWarnings("unchecked")
    private static List<Path> directories(ExtensionContext context) {
        return context.getStore(NAMESPACE).getOrComputeIfAbsent(context.getUniqueId(),
                id -> new CopyOnWriteArrayList<Path>(), List.class);
    }
}
