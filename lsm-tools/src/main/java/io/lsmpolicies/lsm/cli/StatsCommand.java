package io.lsmpolicies.lsm.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.SpaceUsage;
import io.lsmpolicies.lsm.manifest.ComponentSet;
import io.lsmpolicies.lsm.manifest.PolicyRecord;
import io.lsmpolicies.lsm.manifest.TableRecord;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bin/lsm stats}: prints one JSON object with the component set (per level: its tables' file numbers,
 * bytes and entries, level 0 newest first), the policy record, the store's metrics, and the space amplification
 * measured by a full scan: (SSTable bytes on disk - live bytes) / live bytes, where the live bytes are the key
 * and value bytes of the newest version of every key not deleted (docs/architecture.md, "Metrics"). With no live
 * data the amplification is {@code null}.
 */
@Command(name = "stats", sortOptions = false, usageHelpWidth = 110, mixinStandardHelpOptions = true,
        description = "Prints the component set, the metrics and the space amplification (by a full scan) as JSON.")
final class StatsCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--dir", required = true, paramLabel = "DIR", description = "Store directory.")
    private Path dir;

    @Mixin
    private PolicyOptions policy;

    @Override
    public Integer call() throws Exception {
        ObjectNode stats = Json.object();
        try (LsmStore store = ReadAccess.open(spec.commandLine(), dir, policy)) {
            ComponentSet set = store.components();
            stats.put("directory", dir.toString());
            components(stats, set);
            SpaceUsage usage = store.spaceUsage();
            ObjectNode space = stats.putObject("space");
            space.put("sstableBytes", usage.sstableBytes());
            space.put("liveEntries", usage.liveEntries());
            space.put("liveBytes", usage.liveBytes());
            if (usage.liveBytes() > 0) {
                space.put("spaceAmplification", usage.spaceAmplification());
            } else {
                space.putNull("spaceAmplification");
            }
            stats.set("metrics", Json.metrics(store.metrics()));
        }
        spec.commandLine().getOut().println(Json.pretty(stats));
        spec.commandLine().getOut().flush();
        return 0;
    }

    /** Writes the set's levels and policy record into {@code stats}. */
    private static void components(ObjectNode stats, ComponentSet set) {
        ObjectNode c = stats.putObject("components");
        c.put("tables", set.tableCount());
        c.put("lastSequence", set.lastSequence());
        c.put("nextFileNumber", set.nextFileNumber());
        PolicyRecord.recordedIn(set).ifPresent(p -> {
            ObjectNode policy = c.putObject("policy");
            policy.put("name", p.name());
            policy.put("state", HexFormat.of().formatHex(p.state()));
        });
        ArrayNode levels = c.putArray("levels");
        long total = 0;
        for (int i = 0; i < set.levels().size(); i++) {
            List<TableRecord> level = set.level(i);
            ObjectNode l = levels.addObject();
            l.put("level", i);
            long bytes = 0;
            long entries = 0;
            ArrayNode tables = l.putArray("tables");
            for (TableRecord t : level) {
                ObjectNode table = tables.addObject();
                table.put("file", t.fileNumber());
                table.put("bytes", t.fileBytes());
                table.put("dataBytes", t.dataBytes());
                table.put("entries", t.entries());
                table.put("tombstones", t.tombstones());
                bytes += t.fileBytes();
                entries += t.entries();
            }
            l.put("bytes", bytes);
            l.put("entries", entries);
            total += bytes;
        }
        c.put("bytes", total);
    }
}
