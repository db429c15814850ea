package io.lsmpolicies.lsm.stress;

import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.lsm.wal.WriteBatch;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The child process of the expected-state crash test: opens the store with the options of {@link StressOptions}
 * for {@code seed}, then writes until it is killed: random puts (70%), deletes (15%) and batches of 2 to 8
 * operations on distinct keys (15%), each marked pending in the {@link ExpectedState} before it starts and
 * acknowledged there once the store returns. Prints {@code ready} once the store is open.
 * Usage: {@code StressWorker STORE_DIR STATE_FILE SEED RUN_SEED}.
 */
public final class StressWorker {
    private StressWorker() {
    }

    public static void main(String[] args) throws Exception {
        Path store = Path.of(args[0]);
        Path stateFile = Path.of(args[1]);
        long optionsSeed = Long.parseLong(args[2]);
        long runSeed = Long.parseLong(args[3]);
        StressOptions chosen = StressOptions.of(optionsSeed);
        SplittableRandom random = new SplittableRandom(runSeed);
        try (ExpectedState state = ExpectedState.open(stateFile, StressOptions.KEYS);
             LsmStore lsm = LsmStore.open(store, chosen.options())) {
            System.out.println("ready");
            System.out.flush();
            long nextId = Math.abs(runSeed % 1_000_000_000L) * 1_000_000L + 1; // distinct per run
            while (true) {
                int op = random.nextInt(100);
                if (op < 70) {
                    int k = random.nextInt(StressOptions.KEYS);
                    long id = nextId++;
                    state.markPending(k, id);
                    lsm.put(ExpectedState.key(k), ExpectedState.value(k, id));
                    state.acknowledge(k, id);
                } else if (op < 85) {
                    int k = random.nextInt(StressOptions.KEYS);
                    state.markPending(k, ExpectedState.DELETE);
                    lsm.delete(ExpectedState.key(k));
                    state.acknowledge(k, ExpectedState.ABSENT);
                } else {
                    int n = 2 + random.nextInt(7);
                    List<Integer> keys = new ArrayList<>();
                    List<Long> ids = new ArrayList<>();
                    WriteBatch batch = new WriteBatch();
                    while (keys.size() < n) {
                        int k = random.nextInt(StressOptions.KEYS);
                        if (keys.contains(k)) {
                            continue;
                        }
                        long id = random.nextInt(5) == 0 ? ExpectedState.DELETE : nextId++;
                        keys.add(k);
                        ids.add(id);
                        state.markPending(k, id);
                        if (id == ExpectedState.DELETE) {
                            batch.delete(ExpectedState.key(k));
                        } else {
                            batch.put(ExpectedState.key(k), ExpectedState.value(k, id));
                        }
                    }
                    lsm.write(batch);
                    for (int i = 0; i < n; i++) {
                        state.acknowledge(keys.get(i), ids.get(i) == ExpectedState.DELETE ? ExpectedState.ABSENT
                                : ids.get(i));
                    }
                }
            }
        }
    }
}
