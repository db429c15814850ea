package io.lsmpolicies.merge.spi;

/**
 * A policy could not be created: unknown name, unknown parameter, missing or malformed value, value out
 * of range, or inconsistent values. The message names the policy, the parameter, the value and what is
 * accepted; the same facts are available as fields for programs.
 */
public final class PolicyConfigurationException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** The policy name as given. */
    private final String policy;
    /** The parameter at fault, or {@code null} if the name itself is at fault. */
    private final String parameter;
    /** The offending value as given, or {@code null} if missing. */
    private final String value;

    /**
     * A policy configuration error.
     *
     * @param policy    the policy name as given
     * @param parameter the parameter at fault, or {@code null} if the name itself is at fault
     * @param value     the offending value as given, or {@code null} if missing
     * @param message   the full message
     */
    public PolicyConfigurationException(String policy, String parameter, String value, String message) {
        super(message);
        this.policy = policy;
        this.parameter = parameter;
        this.value = value;
    }

    /** {@return the policy name as given} */
    public String policy() {
        return policy;
    }

    /** {@return the parameter at fault, or {@code null} when the policy name is unknown} */
    public String parameter() {
        return parameter;
    }

    /** {@return the offending value as given, or {@code null} when it was missing} */
    public String value() {
        return value;
    }
}
