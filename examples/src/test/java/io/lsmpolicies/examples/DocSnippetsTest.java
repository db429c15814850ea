package io.lsmpolicies.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every Java block of the README and of {@code docs/*.md} is a region of a compiled source file, word for word, so
 * the documentation's code cannot rot: a block must follow a line {@code <!-- snippet: PATH#REGION -->}, PATH
 * relative to the repository root, and equal the lines between {@code // snippet:start REGION} and
 * {@code // snippet:end REGION} in that file (each marker may be followed by a comment), less their common
 * indentation.
 */
class DocSnippetsTest {
    private static final Pattern MARKER = Pattern.compile("<!-- snippet: (\\S+)#(\\S+) -->");

    /** A Java block of a document: where it is, what it says, and the region it names (null: none). */
    record Block(String doc, int line, String text, String path, String region) {
        String where() {
            return doc + ":" + line;
        }
    }

    static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isRegularFile(dir.resolve("mvnw"))) {
            dir = dir.getParent();
        }
        assertThat(dir).as("the repository root (the directory holding mvnw) above the working directory").isNotNull();
        return dir;
    }

    static List<Block> blocks(Path root) throws IOException {
        List<Path> docs = new ArrayList<>();
        docs.add(root.resolve("README.md"));
        try (Stream<Path> s = Files.list(root.resolve("docs"))) {
            s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        List<Block> blocks = new ArrayList<>();
        for (Path doc : docs) {
            List<String> lines = Files.readAllLines(doc, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                if (!lines.get(i).strip().equals("```java")) {
                    continue;
                }
                int start = i;
                StringBuilder text = new StringBuilder();
                while (++i < lines.size() && !lines.get(i).strip().equals("```")) {
                    text.append(lines.get(i)).append('\n');
                }
                Matcher m = start > 0 ? MARKER.matcher(lines.get(start - 1).strip()) : null;
                boolean marked = m != null && m.matches();
                blocks.add(new Block(root.relativize(doc).toString(), start + 1, text.toString(),
                        marked ? m.group(1) : null, marked ? m.group(2) : null));
            }
        }
        return blocks;
    }

    /** The lines between the region's start and end markers in {@code file}, less their common indentation. */
    static String region(Path file, String region) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        int from = -1;
        int to = -1;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i).strip();
            if (marker(l, "// snippet:start " + region)) {
                from = i + 1;
            } else if (marker(l, "// snippet:end " + region) && from >= 0) {
                to = i;
                break;
            }
        }
        if (from < 0 || to < 0) {
            return null;
        }
        List<String> body = lines.subList(from, to);
        int indent = body.stream().filter(l -> !l.isBlank())
                .mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
        StringBuilder text = new StringBuilder();
        for (String l : body) {
            text.append(l.isBlank() ? "" : l.substring(indent)).append('\n');
        }
        return text.toString();
    }

    /** The marker alone, or followed by a space and a comment. */
    private static boolean marker(String line, String marker) {
        return line.equals(marker) || line.startsWith(marker + " ");
    }

    @Test
    void everyJavaBlockOfTheDocsIsARegionOfACompiledFile() throws IOException {
        Path root = root();
        List<Block> blocks = blocks(root);
        assertThat(blocks).as("Java blocks in README.md and docs/").hasSizeGreaterThanOrEqualTo(5);
        List<String> problems = new ArrayList<>();
        for (Block b : blocks) {
            if (b.path() == null) {
                problems.add(b.where() + ": a Java block without a line '<!-- snippet: PATH#REGION -->' before it: "
                        + "put the code in a compiled file (examples/) and name its region");
                continue;
            }
            Path file = root.resolve(b.path());
            if (!Files.isRegularFile(file)) {
                problems.add(b.where() + ": " + b.path() + " does not exist");
                continue;
            }
            String expected = region(file, b.region());
            if (expected == null) {
                problems.add(b.where() + ": " + b.path() + " has no region '" + b.region()
                        + "' (// snippet:start " + b.region() + " ... // snippet:end " + b.region() + ")");
            } else if (!expected.equals(b.text())) {
                problems.add(b.where() + ": differs from " + b.path() + "#" + b.region()
                        + "; the block should read:\n" + expected);
            }
        }
        assertThat(problems).as("the docs' Java blocks against their compiled sources").isEmpty();
    }

    @Test
    void aChangedLineIsFound(@org.junit.jupiter.api.io.TempDir Path tmp) throws IOException {
        Path src = tmp.resolve("A.java");
        Files.writeString(src, "class A {\n    void f() {\n        // snippet:start r\n        int x = 1;\n"
                + "        if (x > 0) {\n            x++;\n        }\n        // snippet:end r\n    }\n}\n");
        assertThat(region(src, "r")).isEqualTo("int x = 1;\nif (x > 0) {\n    x++;\n}\n");
        assertThat(region(src, "missing")).isNull();
    }
}
