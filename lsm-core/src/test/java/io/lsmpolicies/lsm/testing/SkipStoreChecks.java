package io.lsmpolicies.lsm.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Skips some of {@link StoreInvariants}' checks for the stores of one test method, or of every test of a class: for
 * a test that leaves a store damaged, inconsistent or open on purpose (it corrupts a file, injects a fault,
 * simulates a crash), so that what it leaves is what it tests. Skip only what the test breaks: a test that flips a
 * byte of a table still has to close its store ({@link StoreCheck#RELEASED}). On a method, it adds to what its class
 * skips.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface SkipStoreChecks {
    /** The checks not to run; at least one. */
    StoreCheck[] value();

    /** Why the test leaves its stores so; required and shown beside a failure of the checks that still run. */
    String reason();
}
