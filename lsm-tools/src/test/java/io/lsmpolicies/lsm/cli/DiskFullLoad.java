package io.lsmpolicies.lsm.cli;

import io.lsmpolicies.lsm.io.FaultInjector;
import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.io.FileOp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * {@code bin/lsm load} on a device that fills up, for crash tests that run it as a child process:
 * {@code DiskFullLoad TRASH N load --dir ...} runs the load with its store on a {@link FaultInjector} whose device
 * fills up at the load's N-th write (a short write: half of it lands, every later write fails with
 * {@value FaultInjector#NO_SPACE}). {@code TRASH} is a scratch directory outside the store. Exits with the load's
 * status.
 */
public final class DiskFullLoad {
    private DiskFullLoad() {
    }

    public static void main(String[] args) throws Exception {
        FaultInjector faults = new FaultInjector(Files.createDirectories(Path.of(args[0])));
        faults.diskFullAt(FileOp.WRITE, Long.parseLong(args[1]), true);
        System.exit(Lsm.commandLine(FileLayer.withFaults(faults)).execute(Arrays.copyOfRange(args, 2, args.length)));
    }
}
