package io.lsmpolicies.lsm.cli;

import io.lsmpolicies.lsm.ByteSizes;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** A picocli converter for sizes such as {@code 4MB} or {@code 65536} ({@link ByteSizes}'s syntax). */
final class ByteSize implements ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
        return parse(value);
    }

    /** @throws TypeConversionException naming the value and the accepted forms */
    static long parse(String value) {
        try {
            return ByteSizes.parse(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
