package io.lsmpolicies.feeds.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An INI file in AsterixDB's {@code cc.conf} style, with the line of every section and key: {@code [section]}
 * headers, {@code key = value} lines, and whole-line comments starting with {@code #} or {@code ;}. Values are
 * trimmed and taken verbatim (a {@code #} inside a value is part of it). Keys before the first section, lines
 * that are neither, repeated sections and repeated keys are errors.
 *
 * <p>Why not ini4j, the reader AsterixDB itself uses: its model has no line numbers, and every error here names
 * {@code FILE:LINE: KEY}; it folds a repeated key into a multi-valued option (or keeps the last) where a repeated
 * key here is refused, since a descriptor that sets a key twice is a mistake whichever value wins; and it would be a
 * dependency of the server for some sixty lines of parsing. The format read is the subset of ini4j's that
 * AsterixDB's {@code cc.conf} files use.
 */
final class IniFile {
    /** One {@code key = value} line. */
    record Entry(String key, String value, int line) {
    }

    /** One section, its entries in file order. */
    record Section(String name, int line, Map<String, Entry> entries) {
    }

    private IniFile() {
    }

    /** The sections in file order. A line that is not UTF-8 is an error naming it. */
    static List<Section> read(Path file) throws IOException, ConfigException {
        List<String> lines = lines(file);
        List<Section> sections = new ArrayList<>();
        Set<String> names = new HashSet<>();
        Section current = null;
        for (int i = 0; i < lines.size(); i++) {
            int no = i + 1;
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#") || line.startsWith(";")) {
                continue;
            }
            if (line.startsWith("[")) {
                if (!line.endsWith("]") || line.length() < 3) {
                    throw new ConfigException(file, no, null, "malformed section header '" + line + "'");
                }
                String name = line.substring(1, line.length() - 1).strip();
                if (!names.add(name)) {
                    throw new ConfigException(file, no, "[" + name + "]", "section appears twice");
                }
                current = new Section(name, no, new LinkedHashMap<>());
                sections.add(current);
                continue;
            }
            int eq = line.indexOf('=');
            if (eq <= 0) {
                throw new ConfigException(file, no, null, "expected 'key = value' or '[section]', found '"
                        + line + "'");
            }
            String key = line.substring(0, eq).strip();
            if (current == null) {
                throw new ConfigException(file, no, key, "key outside any section");
            }
            Entry previous = current.entries().put(key, new Entry(key, line.substring(eq + 1).strip(), no));
            if (previous != null) {
                throw new ConfigException(file, no, key, "key repeated (first on line " + previous.line() + ")");
            }
        }
        return sections;
    }

    /** The file's lines (split at \n, a \r before it dropped), each decoded strictly as UTF-8. */
    private static List<String> lines(Path file) throws IOException, ConfigException {
        byte[] bytes = Files.readAllBytes(file);
        CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        List<String> lines = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= bytes.length; i++) {
            if (i == bytes.length || bytes[i] == '\n') {
                int end = i > start && bytes[i - 1] == '\r' ? i - 1 : i;
                if (i == bytes.length && start == i) {
                    break;
                }
                try {
                    lines.add(utf8.decode(ByteBuffer.wrap(bytes, start, end - start)).toString());
                } catch (CharacterCodingException e) {
                    throw new ConfigException(file, lines.size() + 1, null, "the line is not valid UTF-8");
                }
                start = i + 1;
            }
        }
        return lines;
    }
}
