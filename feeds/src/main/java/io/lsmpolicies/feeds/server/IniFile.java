package io.lsmpolicies.feeds.server;

import java.io.IOException;
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

    /** The sections in file order. */
    static List<Section> read(Path file) throws IOException, ConfigException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
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
}
