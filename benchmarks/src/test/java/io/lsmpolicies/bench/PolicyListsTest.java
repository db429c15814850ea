package io.lsmpolicies.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.spi.PolicyLayout;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Param;

/**
 * JMH takes a benchmark's parameter values from a literal annotation; each list of policies must be every
 * registered stack policy (a policy added to the registry and not here would go unmeasured).
 */
class PolicyListsTest {

    @Test
    void theJmhPolicyParametersAreTheRegisteredStackPolicies() throws Exception {
        for (Class<?> benchmark : List.of(PolicyDecisionBenchmark.class, SimulatorThroughputBenchmark.class)) {
            Param param = benchmark.getField("policy").getAnnotation(Param.class);
            assertThat(param.value()).as(benchmark.getSimpleName())
                    .containsExactlyInAnyOrderElementsOf(MergePolicies.names(PolicyLayout.STACK));
        }
    }
}
