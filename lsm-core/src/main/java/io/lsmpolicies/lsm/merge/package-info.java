/**
 * <b>Internal: not part of the public API.</b> The iterators a merge and a scan read through. Its public classes
 * are public only so that other packages of this project can use them; they may change or go in any release, are
 * left out of the published Javadoc and out of the API-compatibility check, and a caller outside this project must
 * not use them ({@code docs/releasing.md}, "API boundary").
 */
package io.lsmpolicies.lsm.merge;
