package io.lsmpolicies.lsm.cli;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * How the command line shows keys and values (as text when they are printable UTF-8, otherwise as hex) and reads
 * the keys it is given (the same two forms), so what {@code scan} prints can be passed back to {@code get}.
 */
final class Text {
    private Text() {
    }

    /**
     * {@code bytes} as a string if they are valid UTF-8 without control characters (tab allowed) and do not start
     * with {@code 0x}; otherwise {@code 0x} followed by lowercase hex digits. Empty input is the empty string.
     */
    static String render(byte[] bytes) {
        try {
            String s = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
            if (!s.startsWith("0x") && s.codePoints().allMatch(c -> c == '\t' || !Character.isISOControl(c))) {
                return s;
            }
        } catch (CharacterCodingException e) {
            // not UTF-8: shown as hex
        }
        return "0x" + HexFormat.of().formatHex(bytes);
    }

    /** The bytes of {@code text}: hex after a {@code 0x} prefix when what follows is hex, otherwise UTF-8. */
    static byte[] parse(String text) {
        if (text.startsWith("0x") && text.length() % 2 == 0 && text.substring(2).chars().allMatch(
                c -> Character.digit(c, 16) >= 0)) {
            return HexFormat.of().parseHex(text, 2, text.length());
        }
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
