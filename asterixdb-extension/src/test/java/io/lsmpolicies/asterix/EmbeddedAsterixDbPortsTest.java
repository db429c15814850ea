package io.lsmpolicies.asterix;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The embedded cluster's ports come from below the kernel's ephemeral range: a port picked free inside it was
 * handed to another process's connection before the cluster bound it, on a machine busy with other tests
 * ("Address already in use" at the cluster's start).
 */
class EmbeddedAsterixDbPortsTest {
    @Test
    void portsArePickedBelowTheEphemeralRangeDistinctAndFree() throws Exception {
        int ephemeralLow = EmbeddedAsterixDb.ephemeralLow();
        assertThat(ephemeralLow).as("read from the kernel, not truncated").isGreaterThan(1024);
        List<Integer> ports = EmbeddedAsterixDb.freePorts(40);
        assertThat(ports).hasSize(40).doesNotHaveDuplicates().allMatch(p -> p >= 10_000 && p < ephemeralLow);
        for (int port : ports) {
            try (ServerSocket s = new ServerSocket()) {
                s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            }
        }
    }
}
