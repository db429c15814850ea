package io.lsmpolicies.lsm;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one parser of byte sizes in settings: the command line, the cluster descriptor and the YCSB binding use
 * it. A size is plain bytes ({@code 65536}) or a number with a binary unit, any case, with an optional {@code i}
 * and {@code B}: {@code K} = 1024, {@code M} = 1024^2, {@code G} = 1024^3, {@code T} = 1024^4; {@code B} alone is
 * bytes. So {@code 4MB}, {@code 4MiB}, {@code 4m} and {@code 4194304} are the same.
 */
public final class ByteSizes {
    private static final Pattern SIZE = Pattern.compile("\\s*(\\d+)\\s*(?:([kmgt])i?)?b?\\s*");

    private ByteSizes() {
    }

    /**
     * @throws IllegalArgumentException saying what was wrong and what is accepted
     *
     * @param text a size: bytes, or a number with KB, MB, GB or TB (binary units)
     * @return the size in bytes
     */
    public static long parse(String text) {
        Matcher m = SIZE.matcher(text.toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text.strip() + "' is not a size: expected bytes, or a number"
                    + " with KB, MB, GB or TB (binary units), e.g. 4MB");
        }
        int shift = m.group(2) == null ? 0 : switch (m.group(2).charAt(0)) {
            case 'k' -> 10;
            case 'm' -> 20;
            case 'g' -> 30;
            default -> 40;
        };
        try {
            long n = Long.parseLong(m.group(1));
            if (n > (Long.MAX_VALUE >> shift)) {
                throw new NumberFormatException();
            }
            return n << shift;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("size '" + text.strip() + "' is too large");
        }
    }
}
