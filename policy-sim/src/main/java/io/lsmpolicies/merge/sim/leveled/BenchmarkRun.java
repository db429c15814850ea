package io.lsmpolicies.merge.sim.leveled;

import io.lsmpolicies.merge.spi.MergePolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.function.Consumer;

/**
 * Runs the picker benchmark: every contender on {@code runs} seeded instances of each main workload, and, on the
 * small workload, every contender beside the optimal search. One task per workload instance (generated once and
 * shared by all contenders, so every contender sees the same operations), run on a fixed pool of threads;
 * results come back in task order, so the output does not depend on the thread count.
 */
public final class BenchmarkRun {
    /** Thread stack for the search's depth-first recursion. */
    private static final long STACK_BYTES = 64L << 20;

    private BenchmarkRun() {
    }

    private record TaskResult(List<BenchmarkResults.Run> runs, BenchmarkResults.Search search,
            List<BenchmarkResults.Failure> failures) {
    }

    /**
     * Runs the benchmark.
     *
     * @param progress told one line per finished task (may be a no-op)
     * @param s          the settings
     * @param contenders the contenders
     * @return the results
     * @throws IllegalArgumentException if a contender cannot be made for one of the shapes
     */
    public static BenchmarkResults run(BenchmarkSettings s, List<Contender> contenders, Consumer<String> progress) {
        List<BenchWorkload> workloads = BenchWorkload.main(s);
        BenchWorkload small = s.search() ? BenchWorkload.small(s) : null;
        for (Contender c : contenders) {
            c.make(s.shape());
            if (small != null) {
                c.make(small.shape());
            }
        }
        List<BenchWorkload> plan = new ArrayList<>(workloads);
        if (small != null) {
            plan.add(small);
        }
        long start = System.nanoTime();
        ThreadFactory threads = r -> {
            Thread t = new Thread(null, r, "bench-pickers", STACK_BYTES);
            t.setDaemon(true);
            return t;
        };
        ExecutorService pool = Executors.newFixedThreadPool(s.threads(), threads);
        try {
            List<Future<TaskResult>> futures = new ArrayList<>();
            for (BenchWorkload w : plan) {
                for (int i = 0; i < s.runs(); i++) {
                    long seed = s.seed() + i;
                    futures.add(pool.submit(() -> task(s, w, seed, contenders, w == small)));
                }
            }
            List<BenchmarkResults.Run> runs = new ArrayList<>();
            List<BenchmarkResults.Search> searches = new ArrayList<>();
            List<BenchmarkResults.Failure> failures = new ArrayList<>();
            int done = 0;
            for (Future<TaskResult> f : futures) {
                TaskResult r = get(f);
                runs.addAll(r.runs());
                failures.addAll(r.failures());
                if (r.search() != null) {
                    searches.add(r.search());
                }
                done++;
                progress.accept(String.format(Locale.ROOT, "[%d/%d] %s", done, futures.size(), describe(r)));
            }
            List<String> labels = contenders.stream().map(Contender::label).toList();
            return new BenchmarkResults(s, workloads, small, labels, runs, searches, failures,
                    (System.nanoTime() - start) / 1e9);
        } finally {
            pool.shutdownNow();
        }
    }

    private static TaskResult task(BenchmarkSettings s, BenchWorkload w, long seed, List<Contender> contenders,
            boolean search) {
        FlushSequence flushes = FlushSequence.of(WorkloadGenerator.generate(w.spec(), seed),
                w.shape().memtableOperations());
        List<BenchmarkResults.Run> runs = new ArrayList<>();
        List<BenchmarkResults.Failure> failures = new ArrayList<>();
        BenchmarkResults.Search found = null;
        if (search) {
            SearchSettings settings = new SearchSettings(w.shape().scoring(s.entryBytes()),
                    w.shape().cut(s.entryBytes()), s.trivialMoves(), true, true, s.nodeLimit());
            long t0 = System.nanoTime();
            SearchResult r = OptimalSearch.run(flushes, s.entryBytes(), settings);
            found = new BenchmarkResults.Search(w, seed, r, (System.nanoTime() - t0) / 1e9);
        }
        for (Contender c : contenders) {
            long t0 = System.nanoTime();
            try {
                MergePolicy p = c.make(w.shape());
                ModelResult r = ModelRunner.run(p, c.label(), flushes, s.entryBytes());
                runs.add(new BenchmarkResults.Run(w, c.label(), seed, r, (System.nanoTime() - t0) / 1e9));
            } catch (RuntimeException e) {
                failures.add(new BenchmarkResults.Failure(w.slug(), c.label(), seed, String.valueOf(e.getMessage())));
            }
        }
        return new TaskResult(runs, found, failures);
    }

    private static TaskResult get(Future<TaskResult> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a benchmark task", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(cause);
        }
    }

    private static String describe(TaskResult r) {
        String what = r.search() != null ? "small seed " + r.search().seed()
                : !r.runs().isEmpty() ? r.runs().get(0).workload().slug() + " seed " + r.runs().get(0).seed()
                : r.failures().isEmpty() ? "(nothing)" : r.failures().get(0).workload() + " seed "
                        + r.failures().get(0).seed();
        double seconds = r.runs().stream().mapToDouble(BenchmarkResults.Run::seconds).sum();
        StringBuilder b = new StringBuilder(what).append(String.format(Locale.ROOT, ": %d runs in %.2f s",
                r.runs().size(), seconds));
        if (r.search() != null) {
            SearchResult sr = r.search().result();
            b.append(String.format(Locale.ROOT, "; search WA %.4f, %d nodes%s in %.2f s", sr.writeAmplification(),
                    sr.nodes(), sr.complete() ? "" : " (node limit hit)", r.search().seconds()));
        }
        if (!r.failures().isEmpty()) {
            b.append("; ").append(r.failures().size()).append(" failed");
        }
        return b.toString();
    }
}
