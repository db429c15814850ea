package io.lsmpolicies.asterix;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Watches some datasets while a test ingests, and keeps the largest number of disk components any partition's
 * primary index held ({@link EmbeddedAsterixDb#installedComponents}: what a read must look at), per dataset.
 */
final class ComponentCountSampler implements AutoCloseable {
    private final EmbeddedAsterixDb db;
    private final String dataverse;
    private final List<String> datasets;
    private final Map<String, Integer> max = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile int samples;

    ComponentCountSampler(EmbeddedAsterixDb db, String dataverse, List<String> datasets) {
        this.db = db;
        this.dataverse = dataverse;
        this.datasets = List.copyOf(datasets);
        this.thread = new Thread(this::run, "component-count-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        while (running) {
            for (String dataset : datasets) {
                for (int count : db.installedComponents(dataverse, dataset).values()) {
                    max.merge(dataset, count, Math::max);
                }
            }
            samples++;
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** The most disk components seen in any partition of {@code dataset} so far. */
    int max(String dataset) {
        return max.getOrDefault(dataset, 0);
    }

    /** How many times every dataset was looked at. */
    int samples() {
        return samples;
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join();
    }
}
