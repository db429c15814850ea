package io.lsmpolicies.feeds.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Unless the descriptor names an address, the HTTP API and the feeds listen on 127.0.0.1 only. */
@Timeout(60)
class BindAddressTest {
    @TempDir
    Path tmp;

    @Test
    void bothServersListenOnLoopbackUnlessConfigured() throws Exception {
        String conf = "[nc/nc1]\niodevices = " + tmp.resolve("io0") + "\n"
                + "[http]\nport = 0\n" // no address
                + "[dataset/t]\nprimary-key = id\n"
                + "[feed/f]\ndataset = t\naddresses = 0\n"; // a port alone
        Path file = Files.writeString(tmp.resolve("node.conf"), conf, StandardCharsets.UTF_8);
        NodeDescriptor d = DescriptorParser.parse(file, true);
        assertThat(d.http().getAddress().getHostAddress()).isEqualTo("127.0.0.1");
        assertThat(d.feeds().get(0).addresses()).singleElement()
                .satisfies(a -> assertThat(a.getAddress().getHostAddress()).isEqualTo("127.0.0.1"));
        try (NodeServer s = NodeServer.start(d)) {
            List<InetSocketAddress> bound = new ArrayList<>(s.feedAddresses("f"));
            bound.add(s.httpAddress());
            for (InetSocketAddress a : bound) {
                assertThat(a.getAddress().getHostAddress()).isEqualTo("127.0.0.1");
                new Socket(a.getAddress(), a.getPort()).close(); // reachable on loopback
                for (InetAddress other : otherAddresses()) { // and not on this machine's other interfaces
                    assertThatThrownBy(() -> {
                        try (Socket c = new Socket()) {
                            c.connect(new InetSocketAddress(other, a.getPort()), 2000);
                        }
                    }).as("%s:%d", other, a.getPort()).isInstanceOf(IOException.class);
                }
            }
        }
    }

    /** This machine's IPv4 addresses other than loopback (there may be none). */
    private static List<InetAddress> otherAddresses() throws IOException {
        List<InetAddress> out = new ArrayList<>();
        for (NetworkInterface n : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (n.isUp() && !n.isLoopback()) {
                for (InetAddress a : Collections.list(n.getInetAddresses())) {
                    if (a instanceof Inet4Address && !a.isLoopbackAddress()) {
                        out.add(a);
                    }
                }
            }
        }
        return out;
    }
}
