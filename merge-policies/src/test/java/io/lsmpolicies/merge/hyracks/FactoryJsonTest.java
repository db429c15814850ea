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
    static final List<StackMergePolicyFactory> ALL = List.of(new BinomialMergePolicyFactory(),
            new MinLatencyMergePolicyFactory(), new BigtableMergePolicyFactory(), new ExploringMergePolicyFactory(),
            new TieredMergePolicyFactory(), new ConstantMergePolicyFactory(), new PrefixMergePolicyFactory());

    private static final TestResourceRegistry REGISTRY = new TestResourceRegistry(BinomialMergePolicyFactory.class,
            MinLatencyMergePolicyFactory.class, BigtableMergePolicyFactory.class, ExploringMergePolicyFactory.class,
            TieredMergePolicyFactory.class, ConstantMergePolicyFactory.class, PrefixMergePolicyFactory.class);

    @Test
    void eachFactoryNamesOneOfOurStackPoliciesOnceWithoutTakingAnAsterixDbName() {
        assertThat(ALL).extracting(ILSMMergePolicyFactory::getName).containsExactly("lsmpolicies-binomial",
                "lsmpolicies-minlatency", "lsmpolicies-bigtable", "lsmpolicies-exploring", "lsmpolicies-tiered",
                "lsmpolicies-constant", "lsmpolicies-prefix");
        assertThat(ALL).extracting(f -> ((HyracksMergePolicy) f.createMergePolicy(minimal(f), null))
                .policy().name()).containsExactly("binomial", "minlatency", "bigtable", "exploring", "tiered",
                "constant", "prefix");
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
