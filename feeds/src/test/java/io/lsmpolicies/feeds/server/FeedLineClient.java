package io.lsmpolicies.feeds.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

/** A feed client: writes records, and reads the server's lines (acks, an error) until it closes. */
final class FeedLineClient implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    final Socket socket;
    final List<String> lines = new ArrayList<>();
    final CompletableFuture<Void> closedByServer = new CompletableFuture<>();
    final AtomicReference<Long> lastAck = new AtomicReference<>(0L);

    FeedLineClient(InetSocketAddress a) throws IOException {
        socket = new Socket(a.getAddress(), a.getPort());
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    synchronized (lines) {
                        lines.add(line);
                    }
                    JsonNode n = JSON.readTree(line);
                    if (n.has("acked")) {
                        lastAck.set(n.get("acked").asLong());
                    }
                }
            } catch (IOException e) {
                // reset by the server's close
            }
            closedByServer.complete(null);
        });
        reader.setDaemon(true);
        reader.start();
    }

    /** Writes; a server that closed the connection meanwhile makes this fail, which is fine. */
    void send(byte[] bytes) {
        try {
            OutputStream out = socket.getOutputStream();
            out.write(bytes);
            out.flush();
        } catch (IOException e) {
            // the server closed the connection
        }
    }

    List<String> lines() {
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    /** Half-closes the socket (the end of the stream): the server then writes its final ack and closes. */
    void finish() {
        try {
            socket.shutdownOutput();
        } catch (IOException e) {
            // the server closed the connection
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
