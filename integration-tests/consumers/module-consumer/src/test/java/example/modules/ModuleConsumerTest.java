package example.modules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.PolicyFactory;
import io.lsmpolicies.merge.spi.PolicyLayout;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.lang.module.ModuleDescriptor;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** merge-policies on the module path: a named module, not an automatic one, that finds every policy it provides. */
class ModuleConsumerTest {
    @Test
    void theModuleIsNamedAndFindsEveryPolicy() throws Exception {
        assertTrue(Compaction.class.getModule().isNamed(), "this test runs on the module path");
        Module merge = MergePolicies.class.getModule();
        assertEquals("io.lsmpolicies.merge", merge.getName());
        ModuleDescriptor descriptor = merge.getDescriptor();
        assertFalse(descriptor.isAutomatic(), "merge-policies has its own module-info");

        MergePolicy policy = Compaction.policy("binomial:k=4");
        assertEquals("binomial", policy.name());
        assertEquals(Compaction.policy("constant:k=4").parameters(),
                Compaction.policy("constant:num-components=4").parameters());

        // The module's provides and the class path's META-INF/services name the same factories.
        Set<String> provided = descriptor.provides().stream()
                .filter(p -> p.service().equals(PolicyFactory.class.getName()))
                .flatMap(p -> p.providers().stream()).collect(Collectors.toCollection(TreeSet::new));
        Set<String> listed = new TreeSet<>();
        try (InputStream in = merge.getResourceAsStream("META-INF/services/" + PolicyFactory.class.getName());
                BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            r.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).forEach(listed::add);
        }
        assertEquals(listed, provided);
        int registered = MergePolicies.names(PolicyLayout.STACK).size()
                + MergePolicies.names(PolicyLayout.LEVELED).size();
        assertEquals(provided.size(), registered, "every provided policy is registered on the module path");
    }
}
