package io.lsmpolicies.lsm.cli;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Parses a size such as {@code 4MB}, {@code 512KB}, {@code 1GB} or {@code 65536} (plain bytes) into bytes. Units
 * are binary and case-insensitive: {@code K}/{@code KB}/{@code KiB} = 1024, {@code M}/{@code MB}/{@code MiB} =
 * 1024^2, {@code G}/{@code GB}/{@code GiB} = 1024^3, {@code B} = 1 (so {@code 4MB} is the engine's default
 * MemTable budget of 4 MiB).
 */
final class ByteSize implements ITypeConverter<Long> {
    private static final Pattern SIZE = Pattern.compile("\\s*(\\d+)\\s*([kmg]i?b?|b)?\\s*");

    @Override
    public Long convert(String value) {
        return parse(value);
    }

    /** @throws TypeConversionException naming the value and the accepted forms */
    static long parse(String value) {
        Matcher m = SIZE.matcher(value.toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new TypeConversionException("'" + value + "' is not a size: expected bytes, or a number with KB, "
                    + "MB or GB (binary units), e.g. 4MB");
        }
        String unit = m.group(2) == null ? "b" : m.group(2);
        int shift = switch (unit.charAt(0)) {
            case 'k' -> 10;
            case 'm' -> 20;
            case 'g' -> 30;
            default -> 0;
        };
        try {
            long n = Long.parseLong(m.group(1));
            if (n > (Long.MAX_VALUE >> shift)) {
                throw new NumberFormatException();
            }
            return n << shift;
        } catch (NumberFormatException e) {
            throw new TypeConversionException("size '" + value + "' is too large");
        }
    }
}
