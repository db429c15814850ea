package io.lsmpolicies.merge;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import io.lsmpolicies.merge.policy.FileTouchingPolicyFixture;
import org.junit.jupiter.api.Test;

/**
 * Policies decide; they never do I/O, start threads or take locks; the SPI stays below everything; and only the
 * Hyracks adapter sees Hyracks (its jars are {@code provided}: nothing else may need them at run time). The
 * simulator is another module (policy-sim) built on this one, so nothing here can depend on it.
 */
class ArchitectureTest {
    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.lsmpolicies.merge");

    private static final ArchRule PURE_POLICIES = noClasses().that()
            .resideInAnyPackage("..merge.spi..", "..merge.policy..")
            .should().dependOnClassesThat().resideInAnyPackage("java.io..", "java.nio.file..", "java.net..",
                    "java.util.concurrent..")
            .orShould().dependOnClassesThat().areAssignableTo(Thread.class);

    @Test
    void policiesAndSpiDoNoIoThreadsOrLocks() {
        PURE_POLICIES.check(MAIN);
    }

    @Test
    void theRuleCatchesAPolicyThatTouchesFiles() {
        JavaClasses offender = new ClassFileImporter().importClasses(FileTouchingPolicyFixture.class);
        assertThatThrownBy(() -> PURE_POLICIES.check(offender)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("java.io.File");
    }

    @Test
    void theSpiDoesNotDependOnThePolicies() {
        noClasses().that().resideInAnyPackage("..merge.spi..")
                .should().dependOnClassesThat().resideInAnyPackage("..merge.policy..")
                .check(MAIN);
    }

    @Test
    void onlyTheHyracksAdapterDependsOnHyracksAndNothingDependsOnTheAdapter() {
        noClasses().that().resideOutsideOfPackage("..merge.hyracks..")
                .should().dependOnClassesThat().resideInAnyPackage("org.apache.hyracks..")
                .orShould().dependOnClassesThat().resideInAnyPackage("..merge.hyracks..")
                .check(MAIN);
    }
}
