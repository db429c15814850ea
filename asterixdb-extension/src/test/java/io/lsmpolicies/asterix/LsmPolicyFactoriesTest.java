package io.lsmpolicies.asterix;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.merge.hyracks.StackMergePolicyFactory;
import java.io.IOException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class LsmPolicyFactoriesTest {

    @Test
    void namesAreOurPrefixedPolicyNamesAndIdsAreUnique() {
        assertThat(LsmPolicyFactories.ALL).extracting(LsmPolicyFactories::policyName).containsExactly(
                "lsmpolicies-binomial", "lsmpolicies-minlatency", "lsmpolicies-bigtable", "lsmpolicies-exploring",
                "lsmpolicies-tiered", "lsmpolicies-constant", "lsmpolicies-prefix");
        assertThat(LsmPolicyFactories.ALL).extracting(LsmPolicyFactories::registryId).doesNotHaveDuplicates()
                .allMatch(id -> id.startsWith("lsmpolicies."));
    }

    /** A factory added to merge-policies but not to {@link LsmPolicyFactories#ALL} would not run in AsterixDB. */
    @Test
    void everyConcreteFactoryOfMergePoliciesIsListed() throws Exception {
        assertThat(concreteFactories()).containsExactlyInAnyOrderElementsOf(
                LsmPolicyFactories.ALL.stream().map(Class::getName).toList());
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
