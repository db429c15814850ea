package io.lsmpolicies.lsm.cli;

import io.lsmpolicies.lsm.KeyValue;
import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreIterator;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code bin/lsm scan}: prints the live keys in {@code [from, to)} in key order (unsigned bytes), one
 * {@code key<TAB>value} line each, both shown as {@link Text#render} does.
 */
@Command(name = "scan", sortOptions = false, usageHelpWidth = 110, mixinStandardHelpOptions = true,
        description = "Prints key<TAB>value lines for the keys in [--from, --to), in key order.")
final class ScanCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--dir", required = true, paramLabel = "DIR", description = "Store directory.")
    private Path dir;

    @Option(names = "--from", paramLabel = "KEY", description = "First key (inclusive); default: the smallest.")
    private String from;

    @Option(names = "--to", paramLabel = "KEY", description = "End key (exclusive); default: none.")
    private String to;

    @Option(names = "--limit", paramLabel = "N", description = "Print at most N lines; default: all.")
    private Long limit;

    @Mixin
    private PolicyOptions policy;

    @Override
    public Integer call() throws Exception {
        if (limit != null && limit < 0) {
            throw new ParameterException(spec.commandLine(), "--limit must be >= 0, was " + limit);
        }
        long max = limit == null ? Long.MAX_VALUE : limit;
        PrintWriter out = spec.commandLine().getOut();
        try (LsmStore store = ReadAccess.open(spec.commandLine(), dir, policy);
                StoreIterator it = store.scan(from == null ? null : Text.parse(from), to == null ? null : Text.parse(to))) {
            for (long n = 0; n < max && it.hasNext(); n++) {
                KeyValue kv = it.next();
                out.println(Text.render(kv.key()) + "\t" + Text.render(kv.value()));
            }
        }
        out.flush();
        return 0;
    }
}
