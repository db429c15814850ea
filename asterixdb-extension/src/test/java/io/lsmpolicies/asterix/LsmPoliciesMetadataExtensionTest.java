package io.lsmpolicies.asterix;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.asterix.common.api.IExtension;
import org.apache.asterix.common.config.AsterixExtension;
import org.apache.asterix.common.config.PropertiesAccessor;
import org.apache.asterix.hyracks.bootstrap.CCApplication;
import org.apache.hyracks.algebricks.common.utils.Pair;
import org.apache.hyracks.control.common.config.ConfigManager;
import org.apache.hyracks.control.common.controllers.CCConfig;
import org.ini4j.Ini;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What AsterixDB 0.9.8 makes of the extension and its {@code cc.conf} section, before any metadata node runs
 * (the insertion itself runs against a real metadata node in {@link AsterixDbMergePolicyIntegrationTest}).
 */
class LsmPoliciesMetadataExtensionTest {

    @Test
    void itIsAMetadataExtensionThatClaimsNothingButItsRows() {
        LsmPoliciesMetadataExtension extension = new LsmPoliciesMetadataExtension();
        extension.configure(List.of());
        extension.configure(List.of(new Pair<>("enabled", "true"))); // a later AsterixDB might pass keys
        assertThat(extension.getExtensionKind()).isEqualTo(IExtension.ExtensionKind.METADATA);
        assertThat(extension.getId()).isEqualTo(LsmPoliciesMetadataExtension.ID);
        // null: AsterixDB keeps its own translators and metadata provider, and another extension may replace them
        assertThat(extension.getMetadataTupleTranslatorProvider()).isNull();
        assertThat(extension.getMetadataProviderFactory()).isNull();
        assertThat(extension.getExtensionIndexes()).isEmpty();
    }

    /**
     * The facts behind the section's one key: AsterixDB lists the extension from its section but passes none of
     * its keys to {@code configure}, and the configuration the CC ships to the NCs ({@code toIni}, what
     * {@code TriggerNCWork} sends) keeps an extension section only if it holds a key.
     */
    @Test
    void theSectionNeedsAKeyToReachTheNodesAndItsKeysAreNotPassedOn(@TempDir Path dir) throws Exception {
        Path conf = dir.resolve("cc.conf");
        Files.writeString(conf, "[nc/asterix_nc1]\niodevices=" + dir.resolve("io") + "\n[cc]\naddress=127.0.0.1\n"
                + LsmPoliciesMetadataExtension.CC_CONF_SECTION + "\nenabled=true\n"
                + "[extension/org.example.EmptySection]\n");
        ConfigManager config = new ConfigManager(new String[] { "-config-file", conf.toString() });
        new CCApplication().registerConfig(config);
        new CCConfig(config);
        config.processConfig();

        List<AsterixExtension> extensions = PropertiesAccessor.getInstance(config.getAppConfig()).getExtensions();
        assertThat(extensions).extracting(AsterixExtension::getClassName)
                .contains(LsmPoliciesMetadataExtension.class.getName());
        assertThat(extensions).allSatisfy(e -> assertThat(e.getArgs()).isEmpty());

        Ini shipped = config.toIni(false);
        String ours = LsmPoliciesMetadataExtension.CC_CONF_SECTION.substring(1,
                LsmPoliciesMetadataExtension.CC_CONF_SECTION.length() - 1);
        assertThat(shipped.keySet().stream().filter(s -> s.startsWith("extension/")).collect(Collectors.toList()))
                .containsExactly(ours);
        assertThat(shipped.get(ours, "enabled")).isEqualTo("true");
    }
}
