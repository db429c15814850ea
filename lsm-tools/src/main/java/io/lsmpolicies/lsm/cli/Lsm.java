package io.lsmpolicies.lsm.cli;

import io.lsmpolicies.lsm.io.FileLayer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code bin/lsm}: the engine's command line. Subcommands {@code load} ({@link LoadCommand}), {@code get},
 * {@code scan}, {@code stats} (which open the store read-only; see {@link ReadAccess}), {@code verify} (read-only, see
 * {@link io.lsmpolicies.lsm.StoreVerifier}) and {@code repair} ({@link RepairCommand}).
 *
 * <p>Exit status: 0 success; 1 a key not found, problems found by verify, or an I/O failure or damaged store
 * (the message on stderr); 2 bad arguments, including a bad policy or parameter (the message and the usage on
 * stderr).
 */
@Command(name = "lsm", mixinStandardHelpOptions = true, version = "lsm 0.1.0", usageHelpWidth = 110,
        description = "The LSM engine's command line: load a store, read it, measure it, verify it, repair it.",
        subcommands = {LoadCommand.class, GetCommand.class, ScanCommand.class, StatsCommand.class, EventsCommand.class,
                VerifyCommand.class, RepairCommand.class, CommandLine.HelpCommand.class},
        footer = {"", "Examples:",
                "  lsm load --dir /tmp/db --records 1000000 --value-size 1KB --policy binomial --param k=6 --wal async",
                "  lsm get --dir /tmp/db --key user6284781860667377211",
                "  lsm scan --dir /tmp/db --from user1 --to user2 --limit 10",
                "  lsm stats --dir /tmp/db",
                "  lsm verify --dir /tmp/db",
                "  lsm repair --dir /tmp/db",
                "Exit status: 0 success, 1 not found / problems found / damaged table set aside / I/O failure, 2 bad arguments."})
public final class Lsm implements Runnable {
    @Spec
    private CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The configured command line (error handling included); tests call {@code execute} on it. */
    public static CommandLine commandLine() {
        return configure(new CommandLine(new Lsm()));
    }

    /**
     * As {@link #commandLine()}, with {@code load} doing its I/O through {@code files}: the seam where tests make
     * a load run out of space ({@code FileLayer.withFaults}).
     */
    static CommandLine commandLine(FileLayer files) {
        CommandLine.IFactory defaults = CommandLine.defaultFactory();
        return configure(new CommandLine(new Lsm(), new CommandLine.IFactory() {
            @Override
            @SuppressWarnings("unchecked")
            public <K> K create(Class<K> cls) throws Exception {
                return cls == LoadCommand.class ? (K) new LoadCommand(files) : defaults.create(cls);
            }
        }));
    }

    private static CommandLine configure(CommandLine cl) {
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            PrintWriter err = commandLine.getErr();
            if (e instanceof IllegalArgumentException) {
                err.println("lsm " + commandLine.getCommandName() + ": " + e.getMessage());
                err.flush();
                return 2;
            }
            if (e instanceof IOException || e instanceof UncheckedIOException) {
                err.println("lsm " + commandLine.getCommandName() + ": " + e.getMessage());
                err.flush();
                return 1;
            }
            throw e;
        });
        return cl;
    }

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "a subcommand is required: load, get, scan, stats, verify or repair");
    }
}
