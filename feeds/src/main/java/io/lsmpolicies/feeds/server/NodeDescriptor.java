package io.lsmpolicies.feeds.server;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;

/**
 * A parsed, validated cluster descriptor for one node (see {@link DescriptorParser} and
 * {@code docs/configuration.md}).
 *
 * @param file      the descriptor, for error messages
 * @param nodeId    the {@code <id>} of {@code [nc/<id>]}
 * @param iodevices the partitions' device directories, partition 0 first (relative paths resolved against the
 *                  descriptor's directory); each exists and is writable, or is in {@code iodevicesToCreate}
 * @param iodevicesLine the line of the {@code iodevices} key, for error messages
 * @param iodevicesToCreate the iodevices that do not exist yet and are created when the node starts (only with
 *                  {@code --create-iodevices}); parsing creates nothing
 * @param storage   the {@code [nc]} storage settings
 * @param reopen    the {@code [nc]} {@code partition.reopen.*} keys: when a failed partition is retried
 * @param httpSettings the {@code [http]} section: where the HTTP API listens, its limits, token and TLS
 * @param datasets  the datasets, in file order
 * @param feeds     the feeds, in file order; each names one of the datasets
 * @param notes     what was read and ignored, {@code FILE:LINE: what}: an AsterixDB {@code cc.conf}'s sections and
 *                  keys this server has no use for, the other nodes' sections; the server logs them
 */
public record NodeDescriptor(Path file, String nodeId, List<Path> iodevices, int iodevicesLine,
        List<Path> iodevicesToCreate, StorageSettings storage, ReopenPolicy reopen, HttpSettings httpSettings,
        List<DatasetSpec> datasets, List<FeedSpec> feeds, List<String> notes) {
    public NodeDescriptor {
        notes = List.copyOf(notes);
        iodevices = List.copyOf(iodevices);
        iodevicesToCreate = List.copyOf(iodevicesToCreate);
        datasets = List.copyOf(datasets);
        feeds = List.copyOf(feeds);
    }

    /** Where the HTTP API listens. */
    public InetSocketAddress http() {
        return httpSettings.address();
    }

    /** The line of {@code [http]}'s {@code port} (or of the section, or 0), for bind errors. */
    public int httpLine() {
        return httpSettings.portLine();
    }
}
