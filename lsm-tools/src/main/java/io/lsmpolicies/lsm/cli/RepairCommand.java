package io.lsmpolicies.lsm.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.lsm.StoreRepair;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bin/lsm repair}: rebuilds the manifest from the tables and write-ahead-log segments in the directory
 * ({@link StoreRepair}; it deletes nothing) and prints what it recovered as JSON. Exit status 0 when every file
 * was usable, 1 when a damaged table was set aside (its entries are not in the repaired store) or on an I/O
 * failure.
 */
@Command(name = "repair", sortOptions = false, usageHelpWidth = 110, mixinStandardHelpOptions = true,
        description = "Rebuilds a store whose CURRENT or manifest is lost or damaged from its tables and logs, "
                + "deleting nothing (unused and damaged files move to DIR/" + StoreRepair.SET_ASIDE + "); prints "
                + "a JSON report; exit status 1 if a damaged table was set aside.")
final class RepairCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--dir", required = true, paramLabel = "DIR", description = "Store directory.")
    private Path dir;

    @Override
    public Integer call() throws Exception {
        StoreRepair.Report report = StoreRepair.repair(dir, StoreOptions.defaults());
        ObjectNode json = Json.object();
        json.put("directory", report.directory().toString());
        json.put("manifest", report.manifest());
        json.put("entries", report.entries());
        json.put("lastSequence", report.lastSequence());
        json.put("nextFileNumber", report.nextFileNumber());
        ArrayNode tables = json.putArray("tables");
        for (StoreRepair.Table t : report.tables()) {
            ObjectNode table = tables.addObject();
            table.put("file", t.file());
            table.put("entries", t.entries());
            table.put("minKey", Text.render(t.minKey()));
            table.put("maxKey", Text.render(t.maxKey()));
            table.put("minSequence", t.minSequence());
            table.put("maxSequence", t.maxSequence());
            ArrayNode from = table.putArray("madeFrom");
            t.madeFrom().forEach(from::add);
        }
        ArrayNode segments = json.putArray("walSegments");
        for (StoreRepair.Segment s : report.walSegments()) {
            ObjectNode segment = segments.addObject();
            segment.put("file", s.file());
            segment.put("records", s.records());
            segment.put("entries", s.entries());
            segment.put("ending", s.ending());
        }
        json.put("walRecords", report.walSegments().stream().mapToLong(StoreRepair.Segment::records).sum());
        ArrayNode aside = json.putArray("setAside");
        for (StoreRepair.SetAside a : report.setAside()) {
            ObjectNode file = aside.addObject();
            file.put("file", a.file());
            file.put("movedTo", a.to());
            file.put("reason", a.reason());
        }
        json.put("damagedTables", report.damaged());
        ArrayNode ignored = json.putArray("ignored");
        report.ignored().forEach(ignored::add);
        spec.commandLine().getOut().println(Json.pretty(json));
        spec.commandLine().getOut().flush();
        return report.damaged() == 0 ? 0 : 1;
    }
}
