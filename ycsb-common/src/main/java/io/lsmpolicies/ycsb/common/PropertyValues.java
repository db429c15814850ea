package io.lsmpolicies.ycsb.common;

import io.lsmpolicies.lsm.ByteSizes;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Properties;
import site.ycsb.DBException;

/**
 * Reading YCSB properties with errors that name the property, the value and what is accepted; shared by our
 * binding and the peers' ({@code BindingConfig}, {@code RocksDbConfig}, {@code HyracksConfig}).
 */
public final class PropertyValues {
    private PropertyValues() {
    }

    /**
     * {@return the trimmed value of {@code name}, or {@code dflt} if it is not given}
     *
     * @param p    YCSB's properties
     * @param name the property
     * @param dflt the value when it is not given
     */
    public static String value(Properties p, String name, String dflt) {
        String v = p.getProperty(name);
        return v == null ? dflt : v.trim();
    }

    /**
     * {@code text} as a path.
     *
     * @param name the property {@code text} is the value of, for the error
     * @param text the value
     * @return the path
     * @throws DBException naming {@code name} if it is not one
     */
    public static Path path(String name, String text) throws DBException {
        try {
            return Path.of(text);
        } catch (InvalidPathException e) {
            throw new DBException(name + ": '" + text + "' is not a path: " + e.getMessage(), e);
        }
    }

    /**
     * A size ({@link ByteSizes}: bytes, or a number with KB, MB, GB, TB, binary units), or {@code dflt} if not given.
     *
     * @param p    YCSB's properties
     * @param name the property
     * @param dflt the size when it is not given
     * @return the size in bytes
     * @throws DBException naming {@code name} if it is not a size
     */
    public static long size(Properties p, String name, long dflt) throws DBException {
        String text = p.getProperty(name);
        if (text == null) {
            return dflt;
        }
        try {
            return ByteSizes.parse(text.trim());
        } catch (IllegalArgumentException e) {
            throw new DBException(name + ": " + e.getMessage());
        }
    }

    /**
     * An integer in [{@code min}, {@code max}], or {@code dflt} if not given.
     *
     * @param p    YCSB's properties
     * @param name the property
     * @param dflt the value when it is not given
     * @param min  the smallest accepted value
     * @param max  the largest accepted value
     * @param what what the value means, added to the error in parentheses (null: nothing added)
     * @return the value
     * @throws DBException naming {@code name}, the value and the range otherwise
     */
    public static long longValue(Properties p, String name, long dflt, long min, long max, String what)
            throws DBException {
        String text = p.getProperty(name);
        if (text == null) {
            return dflt;
        }
        long v;
        try {
            v = Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            v = Long.MIN_VALUE;
        }
        if (v < min || v > max) {
            throw new DBException(name + ": '" + text.trim() + "' is not accepted; accepted: an integer in [" + min
                    + ", " + max + "]" + (what == null ? "" : " (" + what + ")"));
        }
        return v;
    }
}
