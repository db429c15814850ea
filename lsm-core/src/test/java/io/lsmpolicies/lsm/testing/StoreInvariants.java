package io.lsmpolicies.lsm.testing;

import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.manifest.StoreFiles;
import java.io.IOException;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Modifier;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Checks every store a test opened once the test is over, as a cache library checks its cache after each of its
 * tests: the store must be closed with all its files released ({@link StoreCheck#RELEASED}), pass the store
 * verifier ({@link StoreCheck#VERIFIER}) and keep its levels in order ({@link StoreCheck#LEVEL_ORDER}). A broken
 * check fails the test with one line per problem, naming the store directory and the check.
 *
 * <p>The stores are found without any hook in the engine: every directory holding {@code CURRENT} or {@code LOCK}
 * under the test's {@code @TempDir} directories, which {@link RecordedTempDirs} records (see {@link StoreChecks} for
 * which checks each gets). Those of a test (instance
 * fields, method parameters) are checked after it, once its {@code @AfterEach} methods have run (which may close
 * what it opened) and before JUnit deletes them; those of a class (static fields, {@code @BeforeAll} parameters)
 * after its {@code @AfterAll} methods. Stores in directories a test creates elsewhere are not seen.
 *
 * <p>A test that failed or was aborted is not checked (what it left is not what it meant to leave). A test that
 * leaves a store so on purpose skips the checks it breaks with {@link SkipStoreChecks}, saying why.
 *
 * <p>Registered in every engine, feed and binding test by JUnit's extension auto-detection (each module's
 * {@code junit-platform.properties} and {@code META-INF/services/org.junit.jupiter.api.extension.Extension}), so
 * no test can forget it.
 */
public final class StoreInvariants implements AfterEachCallback, AfterAllCallback {
    @Override
    public void afterEach(ExtensionContext context) throws IOException {
        check(context, context.getRequiredTestMethod());
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        check(context, null);
    }

    private static void check(ExtensionContext context, AnnotatedElement method) throws IOException {
        List<SkipStoreChecks> skips = skips(context.getRequiredTestClass(), method);
        List<Path> dirs = RecordedTempDirs.recorded(context);
        if (dirs.isEmpty() || context.getExecutionException().isPresent()) {
            return;
        }
        Set<Path> stores = new TreeSet<>();
        for (Path dir : dirs) {
            stores.addAll(storeDirectories(dir));
        }
        if (stores.isEmpty()) {
            return;
        }
        Set<StoreCheck> skip = EnumSet.noneOf(StoreCheck.class);
        skips.forEach(s -> skip.addAll(Arrays.asList(s.value())));
        List<OpenFiles.OpenFile> open = OpenFiles.list().orElse(null);
        List<String> failures = new ArrayList<>();
        for (Path store : stores) {
            StoreChecks.run(store, open, skip).forEach(f -> failures.add("  " + store + ": " + f));
        }
        if (!failures.isEmpty()) {
            StringBuilder message = new StringBuilder("store checks failed after ")
                    .append(method == null ? "the tests of " + context.getRequiredTestClass().getName()
                            : context.getRequiredTestClass().getSimpleName() + "." + context.getDisplayName())
                    .append(":\n").append(String.join("\n", failures));
            for (SkipStoreChecks s : skips) {
                message.append("\n(skipped ").append(Arrays.toString(s.value())).append(": ").append(s.reason())
                        .append(")");
            }
            message.append("\nA test that leaves a store so on purpose says which checks to skip and why: "
                    + "@SkipStoreChecks(value = StoreCheck.<CHECK>, reason = \"...\").");
            throw new AssertionError(message.toString());
        }
    }

    /**
     * The {@link SkipStoreChecks} that apply: on the method (null after all of a class's tests), its class and the
     * classes a {@code @Nested} class is declared in; each must name a check and a reason.
     */
    private static List<SkipStoreChecks> skips(Class<?> testClass, AnnotatedElement method) {
        List<AnnotatedElement> elements = new ArrayList<>();
        if (method != null) {
            elements.add(method);
        }
        Class<?> c = testClass;
        while (c != null) {
            elements.add(c);
            c = Modifier.isStatic(c.getModifiers()) ? null : c.getEnclosingClass(); // a @Nested class's outer class
        }
        List<SkipStoreChecks> skips = new ArrayList<>();
        for (AnnotatedElement e : elements) {
            Optional<SkipStoreChecks> s = AnnotationSupport.findAnnotation(e, SkipStoreChecks.class);
            if (s.isPresent()) {
                if (s.get().value().length == 0 || s.get().reason().isBlank()) {
                    throw new AssertionError("@SkipStoreChecks on " + e + " must name at least one check and the "
                            + "reason the test leaves its stores so");
                }
                skips.add(s.get());
            }
        }
        return skips;
    }

    /** The directories under {@code root} (itself included) holding {@code CURRENT} or {@code LOCK}. */
    private static Set<Path> storeDirectories(Path root) throws IOException {
        Set<Path> stores = new TreeSet<>();
        if (!Files.isDirectory(root)) {
            return stores;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                String name = file.getFileName().toString();
                if (name.equals(StoreFiles.CURRENT) || name.equals(LsmStore.LOCK_FILE)) {
                    stores.add(file.getParent());
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
                return FileVisitResult.CONTINUE; // deleted during the walk, or unreadable: nothing to check there
            }
        });
        return stores;
    }
}
