/**
 * <b>Internal: not part of the public API.</b> The policy advisor {@code bin/lsm-advise}; its interface is the
 * command, not these classes, which may change or go in any release. {@code lsm-tools} has no library API, so no
 * API-compatibility check ({@code docs/releasing.md}, "API boundary").
 */
package io.lsmpolicies.lsm.advise;
