package io.lsmpolicies.merge.spi;

/**
 * A policy could not be created: unknown name, unknown parameter, missing or malformed value, value out
 * of range, or inconsistent values. The message names the policy, the parameter, the value and what is
 * accepted; the same facts are available as fields for programs.
 */
public final class PolicyConfigurationException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String policy;
    private final String parameter;
    private final String value;

    /**
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

    public String policy() {
        return policy;
    }

    /** The parameter at fault, or {@code null} when the policy name is unknown. */
    public String parameter() {
        return parameter;
    }

    /** The offending value as given, or {@code null} when it was missing. */
    public String value() {
        return value;
    }
}
