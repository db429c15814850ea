package io.lsmpolicies.merge.hyracks;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.spi.PolicyLayout;
import java.io.IOException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** {@link HyracksFactories#ALL} agrees with the policy registry and with the factories this package holds. */
class HyracksFactoriesTest {

    /**
     * The stack policies that have no factory, each for a reason: a stack policy added to the registry must be
     * given a factory or added here.
     */
    private static final Map<String, String> WITHOUT_FACTORY = Map.of(
            "no-merge", "Hyracks has its own NoMergePolicy",
            "adaptive", "it merges on the reads it is told of, and Hyracks tells a merge policy of none");

    @Test
    void everyRegisteredStackPolicyHasExactlyOneFactoryOrAReasonWhyNot() {
        List<String> stack = new ArrayList<>(MergePolicies.names(PolicyLayout.STACK));
        assertThat(stack).as("stack policies without a factory").containsAll(WITHOUT_FACTORY.keySet());
        stack.removeAll(WITHOUT_FACTORY.keySet());
        assertThat(HyracksFactories.ALL).extracting(f -> HyracksFactories.instantiate(f).asterixParameters().policy())
                .doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(stack);
    }

    /** A factory added to this package but not to {@link HyracksFactories#ALL} would not run in AsterixDB. */
    @Test
    void everyConcreteFactoryOfThePackageIsListed() throws Exception {
        assertThat(concreteFactories()).containsExactlyInAnyOrderElementsOf(
                HyracksFactories.ALL.stream().map(Class::getName).toList());
    }

    private static List<String> concreteFactories() throws IOException, URISyntaxException, ClassNotFoundException {
        String pkg = StackMergePolicyFactory.class.getPackageName().replace('.', '/') + "/";
        Path location = Path.of(StackMergePolicyFactory.class.getProtectionDomain().getCodeSource().getLocation()
                .toURI());
        List<String> classFiles = new ArrayList<>();
        if (Files.isDirectory(location)) {
            try (Stream<Path> files = Files.list(location.resolve(pkg))) {
                files.map(p -> pkg + p.getFileName()).forEach(classFiles::add);
            }
        } else {
            try (JarFile jar = new JarFile(location.toFile())) {
                for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                    String name = e.nextElement().getName();
                    if (name.startsWith(pkg) && name.indexOf('/', pkg.length()) < 0) {
                        classFiles.add(name);
                    }
                }
            }
        }
        List<String> factories = new ArrayList<>();
        for (String file : classFiles) {
            if (!file.endsWith(".class") || file.contains("$")) {
                continue;
            }
            Class<?> c = Class.forName(file.substring(0, file.length() - ".class".length()).replace('/', '.'));
            if (StackMergePolicyFactory.class.isAssignableFrom(c) && !Modifier.isAbstract(c.getModifiers())) {
                factories.add(c.getName());
            }
        }
        return factories;
    }
}
