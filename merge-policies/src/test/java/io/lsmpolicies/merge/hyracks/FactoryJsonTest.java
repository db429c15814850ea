package io.lsmpolicies.merge.hyracks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;
import java.util.Map;
import org.apache.hyracks.api.io.IPersistedResourceRegistry;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMMergePolicyFactory;
import org.junit.jupiter.api.Test;

/**
 * The factories persist as Hyracks 0.3.8 requires of an {@code ILSMMergePolicyFactory}: JSON through a resource
 * registry (in an index's local resource) and Java serialisation (in job specifications).
 */
class FactoryJsonTest {
    static final List<StackMergePolicyFactory> ALL = HyracksFactories.ALL.stream().map(HyracksFactories::instantiate)
            .toList();

    private static final TestResourceRegistry REGISTRY = TestResourceRegistry.ofOurFactories();

    /**
     * Hyracks 0.3.8 names its own factories {@code prefix}, {@code constant}, {@code concurrent} and
     * {@code no-merge}, and AsterixDB adds {@code correlated-prefix}: ours are prefixed, and each creates the policy
     * it is named for.
     */
    @Test
    void eachFactoryNamesOneOfOurStackPoliciesOnceWithoutTakingAnAsterixDbName() {
        assertThat(ALL).extracting(ILSMMergePolicyFactory::getName).doesNotHaveDuplicates()
                .allMatch(name -> name.startsWith("lsmpolicies-")).doesNotContain("prefix", "constant",
                        "correlated-prefix", "concurrent", "no-merge");
        for (StackMergePolicyFactory f : ALL) {
            String ours = ((HyracksMergePolicy) f.createMergePolicy(minimal(f), null)).policy().name();
            assertThat(f.getName()).isEqualTo("lsmpolicies-" + ours);
            assertThat(f.asterixParameters().policy()).isEqualTo(ours);
        }
    }

    /** The smallest valid AsterixDB properties for {@code f}. */
    static Map<String, String> minimal(StackMergePolicyFactory f) {
        return f.getPropertiesNames().contains("num-components") ? Map.of("num-components", "3")
                : f.getPropertiesNames().contains("max-component-count")
                        ? Map.of("max-component-count", "3") : Map.of();
    }

    @Test
    void toJsonWritesOnlyTheRegistrysClassIdentifier() throws Exception {
        JsonNode json = new TieredMergePolicyFactory().toJson(REGISTRY);
        assertThat(json.get(IPersistedResourceRegistry.TYPE_FIELD_ID).asText()).isEqualTo("TieredMergePolicyFactory");
        assertThat(json.get(IPersistedResourceRegistry.CLASS_FIELD_ID).asText())
                .isEqualTo(TieredMergePolicyFactory.class.getName());
        assertThat(json.get(IPersistedResourceRegistry.VERSION_FIELD_ID).asLong()).isEqualTo(1L);
        assertThat(json.size()).isEqualTo(3);
    }

    @Test
    void everyFactoryReadsBackFromItsJsonAsTheSameFactory() throws Exception {
        for (StackMergePolicyFactory f : ALL) {
            Object back = REGISTRY.roundTrip(f);
            assertThat(back).as(f.getName()).isExactlyInstanceOf(f.getClass());
            assertThat(((StackMergePolicyFactory) back).getPropertiesNames()).isEqualTo(f.getPropertiesNames());
        }
    }

    @Test
    void everyFactorySurvivesJavaSerialisation() throws Exception {
        for (StackMergePolicyFactory f : ALL) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
                out.writeObject(f);
            }
            try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
                StackMergePolicyFactory back = (StackMergePolicyFactory) in.readObject();
                assertThat(back.getName()).isEqualTo(f.getName());
            }
        }
    }

    /** What AsterixDB 0.9.8's registry does with a factory it was not told about: docs/asterixdb.md, "What remains". */
    @Test
    void aRegistryThatDoesNotKnowTheFactoryRefusesToWriteIt() {
        TestResourceRegistry hyracksOnly = new TestResourceRegistry();
        assertThatThrownBy(() -> new BinomialMergePolicyFactory().toJson(hyracksOnly))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("was not registered");
    }
}
