package io.lsmpolicies.lsm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;

/** Runs {@code bin/lsm} in-process through {@link Lsm#commandLine()}, capturing stdout and stderr. */
final class CliRunner {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What one run printed and returned. */
    record Result(int exit, String out, String err) {
        List<String> lines() {
            return out.isEmpty() ? List.of() : Arrays.asList(out.split("\n"));
        }

        /** The whole stdout as one JSON document. */
        JsonNode json() {
            return parse(out);
        }

        /** The last stdout line as JSON (load's summary). */
        JsonNode lastLine() {
            List<String> lines = lines();
            return parse(lines.get(lines.size() - 1));
        }
    }

    private CliRunner() {
    }

    static Result run(Object... args) {
        String[] text = Arrays.stream(args).map(String::valueOf).toArray(String[]::new);
        CommandLine cl = Lsm.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int exit = cl.execute(text);
        return new Result(exit, out.toString().replace("\r\n", "\n"), err.toString());
    }

    static JsonNode parse(String text) {
        try {
            return JSON.readTree(text);
        } catch (java.io.IOException e) {
            throw new UncheckedIOException("not JSON: " + text, e);
        }
    }
}
