package example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.TreeView;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** merge-policies from its published coordinates: it works, and it brings no other jar. */
class PoliciesConsumerTest {
    @Test
    void aPolicyRunsAndTheJarBringsNothing() {
        MergePolicy policy = MergePolicies.parse("binomial:k=4");
        PolicyState state = policy.initialState();
        List<SSTableInfo> stack = new ArrayList<>();
        stack.add(SSTableInfo.builder(1).bytes(1 << 20).entries(100).flush(1).build());
        state = policy.onFlush(state, TreeView.stackOf(stack));
        assertEquals("binomial", policy.name());
        assertTrue(policy.decide(TreeView.stackOf(stack), state).jobs().isEmpty());
        assertEquals(MergePolicies.parse("constant:k=4").parameters(),
                MergePolicies.parse("constant:num-components=4").parameters());

        List<String> ours = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            String name = new File(entry).getName();
            if (name.endsWith(".jar") && !name.matches("(junit|opentest4j|apiguardian|surefire|common-).*")) {
                ours.add(name);
            }
        }
        assertEquals(List.of("merge-policies-0.1.0-SNAPSHOT.jar"), ours, "the jars merge-policies brings");
    }
}
