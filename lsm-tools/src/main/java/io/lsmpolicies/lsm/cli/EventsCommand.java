package io.lsmpolicies.lsm.cli;

import io.lsmpolicies.lsm.events.EventLog;
import io.lsmpolicies.lsm.events.StoreEvent;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bin/lsm events}: prints a store's event log, oldest first: each flush, each merge with the policy's reason,
 * stalls, the failure that stopped the store, the steps of opening and recovery, closes. It reads the log files
 * only, so it works while the store is open elsewhere, and changes nothing.
 */
@Command(name = "events", sortOptions = false, usageHelpWidth = 110, mixinStandardHelpOptions = true,
        description = "Prints the store's event log (flushes, merges with their reasons, stalls, failures, "
                + "recovery steps), oldest first.")
final class EventsCommand implements Callable<Integer> {
    private static final Set<String> KINDS = Set.of("flush", "merge", "stall", "merge-lag", "failure", "recovery",
            "closed");

    @Spec
    private CommandSpec spec;

    @Option(names = "--dir", required = true, paramLabel = "DIR", description = "Store directory.")
    private Path dir;

    @Option(names = "--type", split = ",", paramLabel = "KIND",
            description = "Only these kinds: flush, merge, stall, merge-lag, failure, recovery, closed.")
    private List<String> types = List.of();

    @Option(names = "--last", paramLabel = "N", description = "Only the last N events (after --type).")
    private Integer last;

    @Option(names = "--json", description = "One JSON object per line, as the log holds them.")
    private boolean json;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        for (String t : types) {
            if (!KINDS.contains(t)) {
                err.println("unknown event kind '" + t + "' in --type; the kinds are " + String.join(", ",
                        KINDS.stream().sorted().toList()));
                return 2;
            }
        }
        if (last != null && last < 0) {
            err.println("--last must be >= 0, was " + last);
            return 2;
        }
        if (!Files.exists(dir.resolve(EventLog.FILE)) && !Files.exists(dir.resolve(EventLog.OLD_FILE))) {
            err.println("no event log in " + dir + " (no " + EventLog.FILE + " file): not a store, a store opened "
                    + "only read-only, or one whose eventLogBytes is 0");
            return 1;
        }
        EventLog.Contents contents = EventLog.read(dir);
        List<StoreEvent> events = contents.events().stream()
                .filter(e -> types.isEmpty() || types.contains(kind(e))).toList();
        if (last != null && events.size() > last) {
            events = events.subList(events.size() - last, events.size());
        }
        for (StoreEvent e : events) {
            out.println(json ? EventLog.toJson(e) : describe(e));
        }
        if (contents.skippedLines() > 0) {
            err.println(contents.skippedLines() + " line(s) of the log were not whole events (cut short by a crash, "
                    + "or damaged) and were skipped");
        }
        out.flush();
        err.flush();
        return 0;
    }

    /** The kind's name, as in the log's {@code "event"} field. */
    static String kind(StoreEvent e) {
        if (e instanceof StoreEvent.Flush) {
            return "flush";
        } else if (e instanceof StoreEvent.Merge) {
            return "merge";
        } else if (e instanceof StoreEvent.Stall) {
            return "stall";
        } else if (e instanceof StoreEvent.MergeLag) {
            return "merge-lag";
        } else if (e instanceof StoreEvent.Failure) {
            return "failure";
        } else if (e instanceof StoreEvent.Recovery) {
            return "recovery";
        }
        return "closed";
    }

    /** One line for a reader: time, kind, then what happened. */
    static String describe(StoreEvent e) {
        String head = Instant.ofEpochMilli(e.timeMillis()) + " " + kind(e) + " ";
        if (e instanceof StoreEvent.Flush f) {
            return head + "#" + f.flush() + " -> " + f.tables() + " " + bytes(f.bytes()) + " in " + millis(f.micros())
                    + (f.mergedIn().isEmpty() ? "" : " (merged in " + f.mergedIn() + ")") + "; " + f.components()
                    + " components";
        } else if (e instanceof StoreEvent.Merge m) {
            return head + m.kind() + " " + m.inputs() + " -> L" + m.outputLevel() + " " + m.outputs() + " "
                    + bytes(m.inputBytes()) + " -> " + bytes(m.outputBytes()) + " in " + millis(m.micros()) + ": "
                    + m.reason();
        } else if (e instanceof StoreEvent.Stall s) {
            return head + "writer waited " + millis(s.micros()) + " with " + s.immutableMemtables()
                    + " MemTables waiting for their flush";
        } else if (e instanceof StoreEvent.MergeLag l) {
            return head + "flush held " + millis(l.micros()) + " while the policy said merging lagged";
        } else if (e instanceof StoreEvent.Failure f) {
            return head + f.error();
        } else if (e instanceof StoreEvent.Recovery r) {
            return head + r.step() + ": " + r.detail();
        }
        return head + ((StoreEvent.Closed) e).detail();
    }

    private static String bytes(long b) {
        return String.format(Locale.ROOT, "%,d B", b);
    }

    private static String millis(long micros) {
        return String.format(Locale.ROOT, "%.1f ms", micros / 1000.0);
    }
}
