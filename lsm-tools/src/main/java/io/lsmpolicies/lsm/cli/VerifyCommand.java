package io.lsmpolicies.lsm.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lsmpolicies.lsm.StoreVerifier;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bin/lsm verify}: runs {@link StoreVerifier} (read-only: the store is not opened) and prints its report
 * as JSON. Exit status 0 if no problem was found (warnings allowed), 1 otherwise.
 */
@Command(name = "verify", sortOptions = false, usageHelpWidth = 110, mixinStandardHelpOptions = true,
        description = "Checks every table page by page and the manifest's consistency, without changing the store; "
                + "prints a JSON report, exit status 1 on any problem.")
final class VerifyCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--dir", required = true, paramLabel = "DIR", description = "Store directory.")
    private Path dir;

    @Override
    public Integer call() throws Exception {
        StoreVerifier.Report report = StoreVerifier.verify(dir);
        ObjectNode json = Json.object();
        json.put("ok", report.ok());
        json.put("directory", report.directory().toString());
        json.put("manifest", report.manifest() == null ? null : report.manifest().getFileName().toString());
        ArrayNode tables = json.putArray("tables");
        for (StoreVerifier.TableCheck t : report.tables()) {
            ObjectNode table = tables.addObject();
            table.put("file", t.fileNumber());
            table.put("level", t.level());
            table.put("bytes", t.fileBytes());
            table.put("entries", t.entries());
            table.put("height", t.height());
            table.put("ok", t.problems().isEmpty());
        }
        json.put("walSegments", report.walSegments());
        json.put("walRecords", report.walRecords());
        ArrayNode problems = json.putArray("problems");
        report.problems().forEach(problems::add);
        ArrayNode warnings = json.putArray("warnings");
        report.warnings().forEach(warnings::add);
        spec.commandLine().getOut().println(Json.pretty(json));
        spec.commandLine().getOut().flush();
        return report.ok() ? 0 : 1;
    }
}
