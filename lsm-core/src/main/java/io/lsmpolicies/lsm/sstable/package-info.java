/**
 * <b>Internal, except {@link io.lsmpolicies.lsm.sstable.SSTableOptions}: not part of the public API.</b> The
 * SSTable format, its writer, reader and verifier, the Bloom filter, the block cache, and the background forces
 * of files being written (tables and log segments). Of this package only
 * {@code SSTableOptions} and its {@code Builder} (what {@code StoreOptions.Builder.sstable} takes) are API, checked
 * for compatibility like the API packages. Every other public class here is public only so that other packages of
 * this project can use it; it may change or go in any release, is left out of the published Javadoc and out of the
 * API-compatibility check, and a caller outside this project must not use it ({@code docs/releasing.md}, "API
 * boundary").
 */
package io.lsmpolicies.lsm.sstable;
