package io.lsmpolicies.merge.policy;

import java.io.File;

/** A deliberate offender for {@code ArchitectureTest}: "policy" code that touches the file system. */
public final class FileTouchingPolicyFixture {
    private FileTouchingPolicyFixture() {
    }

    /** Reads a file's length: exactly what a policy must never do. */
    public static long peek(String path) {
        return new File(path).length();
    }
}
