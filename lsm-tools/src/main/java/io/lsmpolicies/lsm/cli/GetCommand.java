package io.lsmpolicies.lsm.cli;

import io.lsmpolicies.lsm.LsmStore;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bin/lsm get}: prints the value of one key (as text if printable UTF-8, else {@code 0x}-hex; see
 * {@link Text}). Exit status 0 if found, 1 with {@code not found} on stderr if the key is absent or deleted.
 */
@Command(name = "get", sortOptions = false, usageHelpWidth = 110, mixinStandardHelpOptions = true,
        description = "Prints the value of a key (exit status 1 if there is none).")
final class GetCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--dir", required = true, paramLabel = "DIR", description = "Store directory.")
    private Path dir;

    @Option(names = "--key", required = true, paramLabel = "KEY",
            description = "The key: UTF-8 text, or 0x followed by hex digits.")
    private String key;

    @Mixin
    private PolicyOptions policy;

    @Override
    public Integer call() throws Exception {
        byte[] value;
        try (LsmStore store = ReadAccess.open(spec.commandLine(), dir, policy)) {
            value = store.get(Text.parse(key));
        }
        if (value == null) {
            spec.commandLine().getErr().println("not found: " + key);
            spec.commandLine().getErr().flush();
            return 1;
        }
        spec.commandLine().getOut().println(Text.render(value));
        spec.commandLine().getOut().flush();
        return 0;
    }
}
