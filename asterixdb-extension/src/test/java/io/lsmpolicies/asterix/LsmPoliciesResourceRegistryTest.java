package io.lsmpolicies.asterix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lsmpolicies.merge.hyracks.BinomialMergePolicyFactory;
import io.lsmpolicies.merge.hyracks.StackMergePolicyFactory;
import java.util.HashMap;
import java.util.Map;
import org.apache.asterix.app.io.PersistedResourceRegistry;
import org.apache.hyracks.api.io.IJsonSerializable;
import org.apache.hyracks.api.io.IPersistedResourceRegistry;
import org.apache.hyracks.storage.am.lsm.common.impls.NoMergePolicyFactory;
import org.apache.hyracks.storage.am.lsm.common.impls.PrefixMergePolicyFactory;
import org.junit.jupiter.api.Test;

/** The registry against AsterixDB 0.9.8's own {@link PersistedResourceRegistry}, the one it extends. */
class LsmPoliciesResourceRegistryTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyOneOfOurFactoriesWritesItsOwnIdAndReadsBackAsTheSameClass() throws Exception {
        LsmPoliciesResourceRegistry registry = new LsmPoliciesResourceRegistry();
        for (Class<? extends StackMergePolicyFactory> f : LsmPolicyFactories.ALL) {
            StackMergePolicyFactory factory = LsmPolicyFactories.instantiate(f);
            JsonNode json = JSON.readTree(JSON.writeValueAsString(factory.toJson(registry)));
            assertThat(json.get(IPersistedResourceRegistry.TYPE_FIELD_ID).asText())
                    .isEqualTo("lsmpolicies." + f.getSimpleName());
            assertThat(registry.deserialize(json)).as(f.getSimpleName()).isExactlyInstanceOf(f);
        }
    }

    @Test
    void everyIdOfAsterixDbMeansWhatItMeansThereAndOursAreTheOnlyAdditions() {
        Map<String, Class<? extends IJsonSerializable>> stock = new StockClasses().classes();
        Map<String, Class<? extends IJsonSerializable>> ours = new OurClasses().classes();
        assertThat(stock).hasSizeGreaterThan(100);
        Map<String, Class<? extends IJsonSerializable>> added = new HashMap<>(ours);
        stock.forEach((id, c) -> {
            assertThat(ours.get(id)).as(id).isEqualTo(c);
            added.remove(id);
        });
        assertThat(added).hasSize(LsmPolicyFactories.ALL.size());
        LsmPolicyFactories.ALL.forEach(f -> assertThat(added.get(LsmPolicyFactories.registryId(f))).isEqualTo(f));
        // Hyracks' factory keeps its id; ours of the same simple name is not taken for it.
        assertThat(ours.get("PrefixMergePolicyFactory")).isEqualTo(PrefixMergePolicyFactory.class);
    }

    /** Why the NCs need our registry: AsterixDB's can neither write nor read a local resource naming our factory. */
    @Test
    void asterixDbsOwnRegistryRefusesOurFactoriesBothWays() throws Exception {
        PersistedResourceRegistry stock = new PersistedResourceRegistry();
        assertThatThrownBy(() -> new BinomialMergePolicyFactory().toJson(stock))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("was not registered");
        JsonNode ours = new BinomialMergePolicyFactory().toJson(new LsmPoliciesResourceRegistry());
        assertThatThrownBy(() -> stock.deserialize(ours)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("No class with id lsmpolicies.BinomialMergePolicyFactory was registered");
    }

    @Test
    void anIdAlreadyTakenIsAnErrorNamingBothClasses() {
        assertThatThrownBy(TakenId::new).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'lsmpolicies.BinomialMergePolicyFactory'")
                .hasMessageContaining(BinomialMergePolicyFactory.class.getName())
                .hasMessageContaining(NoMergePolicyFactory.class.getName());
    }

    /** A registry in which something else holds the id of our Binomial factory before ours are added. */
    private static final class TakenId extends LsmPoliciesResourceRegistry {
        @Override
        protected void registerClasses() {
            registeredClasses.put("lsmpolicies.BinomialMergePolicyFactory", NoMergePolicyFactory.class);
            super.registerClasses();
        }
    }

    /** AsterixDB's registry, with its class map readable (the map is protected). */
    private static final class StockClasses extends PersistedResourceRegistry {
        Map<String, Class<? extends IJsonSerializable>> classes() {
            return new HashMap<>(registeredClasses);
        }
    }

    /** Ours, with its class map readable. */
    private static final class OurClasses extends LsmPoliciesResourceRegistry {
        Map<String, Class<? extends IJsonSerializable>> classes() {
            return new HashMap<>(registeredClasses);
        }
    }
}
