package io.lsmpolicies.lsm;

/**
 * One key and its value, as a read or a scan returns it. The arrays are the caller's: the store keeps no
 * reference to them.
 *
 * @param key   the key
 * @param value the value
 */
public record KeyValue(byte[] key, byte[] value) {
}
