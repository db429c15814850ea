/**
 * <b>Internal, except {@link io.lsmpolicies.lsm.manifest.ComponentSet}, {@link
 * io.lsmpolicies.lsm.manifest.TableRecord}, {@link io.lsmpolicies.lsm.manifest.StoredOptions} and {@link
 * io.lsmpolicies.lsm.manifest.ManifestOptions}: not part of the public API.</b> The manifest (the log of the store's
 * component set), its edits and their encoding, the {@code OPTIONS} and {@code CURRENT} files. Of this package only
 * those four classes (what {@code LsmStore} returns or {@code StoreOptions} takes) are API, checked for
 * compatibility like the API packages. Every other public class here is public only so that other packages of this
 * project can use it; it may change or go in any release, is left out of the API-compatibility check, and a caller
 * outside this project must not use it ({@code docs/releasing.md}, "API boundary").
 */
package io.lsmpolicies.lsm.manifest;
