package io.lsmpolicies.feeds.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS on the HTTP API (a PKCS#12 keystore) and on a feed (PEM certificate and key), with keys made by
 * the JDK's {@code keytool} at test time; and the descriptor errors of a bad TLS setup.
 */
@Timeout(120)
class TlsTest {
    private static final String PASSWORD = "changeit-123";

    @TempDir
    static Path keys;
    @TempDir
    Path tmp;
    private static SSLContext client;

    /** Makes {@code name}.p12 (EC P-256, CN=localhost, SAN 127.0.0.1) and its PEM certificate and key. */
    private static void keypair(String name) throws Exception {
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process p = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "server", "-keyalg", "EC",
                "-groupname", "secp256r1", "-dname", "CN=localhost", "-ext", "san=ip:127.0.0.1,dns:localhost",
                "-validity", "2", "-storetype", "PKCS12", "-keystore", keys.resolve(name + ".p12").toString(),
                "-storepass", PASSWORD, "-keypass", PASSWORD).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keys.resolve(name + ".p12"))) {
            ks.load(in, PASSWORD.toCharArray());
        }
        Certificate cert = ks.getCertificate("server");
        PrivateKey key = (PrivateKey) ks.getKey("server", PASSWORD.toCharArray());
        Files.writeString(keys.resolve(name + ".crt"), pem("CERTIFICATE", cert.getEncoded()));
        Files.writeString(keys.resolve(name + ".key"), pem("PRIVATE KEY", key.getEncoded()));
        // The same key encrypted as openssl pkcs8 -topk8 -v2 aes-256-cbc writes it (PBES2, PBKDF2-HMAC-SHA256).
        String algorithm = "PBEWithHmacSHA256AndAES_256";
        javax.crypto.Cipher cipher = javax.crypto.Cipher.getInstance(algorithm);
        cipher.init(javax.crypto.Cipher.ENCRYPT_MODE, javax.crypto.SecretKeyFactory.getInstance(algorithm)
                .generateSecret(new javax.crypto.spec.PBEKeySpec(PASSWORD.toCharArray())),
                new javax.crypto.spec.PBEParameterSpec(new byte[16], 10_000,
                        new javax.crypto.spec.IvParameterSpec(new byte[16])));
        java.security.AlgorithmParameters pbes2 = java.security.AlgorithmParameters.getInstance("PBES2");
        pbes2.init(cipher.getParameters().getEncoded()); // named PBES2, so that the key info gets PBES2's OID
        byte[] encrypted = new javax.crypto.EncryptedPrivateKeyInfo(pbes2, cipher.doFinal(key.getEncoded()))
                .getEncoded();
        Files.writeString(keys.resolve(name + "-encrypted.key"), pem("ENCRYPTED PRIVATE KEY", encrypted));
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(der) + "\n-----END " + type + "-----\n";
    }

    @BeforeAll
    static void makeKeys() throws Exception {
        keypair("server");
        keypair("other");
        Files.writeString(keys.resolve("password"), PASSWORD + "\n");
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(keys.resolve("server.p12"))) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(in, PASSWORD.toCharArray());
            trust.setCertificateEntry("server", ks.getCertificate("server"));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        client = SSLContext.getInstance("TLS");
        client.init(null, tmf.getTrustManagers(), null);
    }

    private Path descriptor(String http, String feed) throws IOException {
        String conf = "[nc/nc1]\n" // 1
                + "iodevices = " + tmp.resolve("io0") + "\n" // 2
                + "[nc]\nstorage.wal.mode = async\n" // 3, 4
                + "[dataset/usertable]\nprimary-key = YCSB_KEY\n" // 5, 6
                + "[http]\nport = 0\n" + http // 7, 8, 9...
                + "[feed/ycsb]\ndataset = usertable\naddresses = 127.0.0.1:0\n" + feed;
        return Files.writeString(tmp.resolve("node.conf"), conf, StandardCharsets.UTF_8);
    }

    @Test
    void httpsAndAFeedOverTlsWorkAndPlaintextToThemFailsCleanly() throws Exception {
        Path conf = descriptor("tls.keystore = " + keys.resolve("server.p12") + "\ntls.keystore-password-file = "
                + keys.resolve("password") + "\n", "tls.certificate = " + keys.resolve("server.crt")
                + "\ntls.private-key = " + keys.resolve("server.key") + "\n");
        try (NodeServer s = NodeServer.start(DescriptorParser.parse(conf, true))) {
            InetSocketAddress feed = s.feedAddresses("ycsb").get(0);
            try (SSLSocket c = (SSLSocket) client.getSocketFactory().createSocket(feed.getAddress(),
                    feed.getPort())) {
                c.startHandshake();
                assertThat(c.getSession().getProtocol()).startsWith("TLSv1.");
                OutputStream out = c.getOutputStream();
                for (int i = 0; i < 500; i++) {
                    out.write(("{\"YCSB_KEY\":\"user" + i + "\",\"field0\":hex(\"0a1b\")}")
                            .getBytes(StandardCharsets.US_ASCII));
                }
                out.flush();
            }
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (s.feed("ycsb").stats().records() < 500 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(s.feed("ycsb").stats().records()).isEqualTo(500);

            // Plain TCP to the TLS feed: nothing is ingested, and the server closes the connection.
            try (Socket plain = new Socket(feed.getAddress(), feed.getPort())) {
                plain.setSoTimeout(10_000);
                plain.getOutputStream().write("{\"YCSB_KEY\":\"plain\"}".getBytes(StandardCharsets.US_ASCII));
                assertThat(readUntilClosed(plain.getInputStream())).isTrue();
            }
            assertThat(s.feed("ycsb").stats().records()).isEqualTo(500);

            HttpClient https = HttpClient.newBuilder().sslContext(client).version(HttpClient.Version.HTTP_1_1)
                    .build();
            String base = "://127.0.0.1:" + s.httpAddress().getPort();
            HttpResponse<String> r = https.send(HttpRequest.newBuilder(URI.create("https" + base
                    + "/datasets/usertable/records/user42")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).contains("\"YCSB_KEY\":\"user42\"");
            HttpResponse<String> big = https.send(HttpRequest.newBuilder(URI.create("https" + base
                    + "/datasets/usertable/records?limit=500")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(big.body()).startsWith("[{").endsWith("}]").contains("\"user99\"");

            // Plain HTTP to the TLS port: the client gets no answer, the server stays up.
            HttpClient plainHttp = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            assertThatThrownBy(() -> plainHttp.send(HttpRequest.newBuilder(URI.create("http" + base + "/health"))
                    .build(), HttpResponse.BodyHandlers.ofString())).isInstanceOf(IOException.class);
            assertThat(https.send(HttpRequest.newBuilder(URI.create("https" + base + "/health")).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
        }
    }

    /** Reads until the peer closes (true) or resets; false if it stays open. */
    private static boolean readUntilClosed(InputStream in) throws IOException {
        byte[] buf = new byte[4096];
        try {
            while (in.read(buf) >= 0) {
                // a TLS alert, perhaps
            }
            return true;
        } catch (SocketException reset) {
            return true;
        } catch (java.net.SocketTimeoutException open) {
            return false;
        }
    }

    @Test
    void anEncryptedPemKeyIsReadWithItsPassword() throws Exception {
        // Regression: an encrypted PKCS#8 key was refused ("is encrypted; give an unencrypted PKCS#8 key").
        String crt = keys.resolve("server.crt").toString();
        String encrypted = keys.resolve("server-encrypted.key").toString();
        Files.createDirectories(tmp.resolve("io0"));
        NodeDescriptor d = DescriptorParser.parse(descriptor("tls.certificate = " + crt + "\ntls.private-key = "
                + encrypted + "\ntls.private-key-password = " + PASSWORD + "\n", ""));
        assertThat(d.httpSettings().tls()).isNotNull();
        NodeDescriptor fromFile = DescriptorParser.parse(descriptor("tls.certificate = " + crt + "\ntls.private-key = "
                + encrypted + "\ntls.private-key-password-file = " + keys.resolve("password") + "\n", ""));
        assertThat(fromFile.httpSettings().tls()).isNotNull();
        ConfigException wrong = catchThrowableOfType(ConfigException.class, () -> DescriptorParser.parse(descriptor(
                "tls.certificate = " + crt + "\ntls.private-key = " + encrypted + "\ntls.private-key-password = no\n",
                "")));
        assertThat(List.<Object>of(wrong.line(), wrong.key())).containsExactly(11, "tls.private-key-password");
        assertThat(wrong.reason()).contains("cannot decrypt");
        ConfigException none = catchThrowableOfType(ConfigException.class, () -> DescriptorParser.parse(descriptor(
                "tls.certificate = " + crt + "\ntls.private-key = " + encrypted + "\n", "")));
        assertThat(List.<Object>of(none.line(), none.key())).containsExactly(10, "tls.private-key");
        assertThat(none.reason()).contains("is encrypted; give its password");
    }

    @Test
    void aBadTlsSetupIsAnErrorNamingItsLine() throws Exception {
        String p12 = keys.resolve("server.p12").toString();
        String crt = keys.resolve("server.crt").toString();
        String key = keys.resolve("server.key").toString();
        String otherKey = keys.resolve("other.key").toString();
        Files.createDirectories(tmp.resolve("io0"));
        Object[][] cases = {
            // [http] content, [feed] content, line, key, reason
            {"tls.keystore = " + tmp.resolve("missing.p12") + "\ntls.keystore-password = x\n", "", 9,
                "tls.keystore", "no such file"},
            {"tls.keystore = " + p12 + "\ntls.keystore-password = wrong\n", "", 10, "tls.keystore-password",
                "password"},
            {"tls.keystore = " + p12 + "\ntls.keystore-password-file = " + tmp.resolve("nofile") + "\n", "", 10,
                "tls.keystore-password-file", "no such file"},
            {"tls.keystore = " + p12 + "\n", "", 9, "tls.keystore", "needs tls.keystore-password"},
            {"tls.keystore = " + crt + "\ntls.keystore-password = x\n", "", 9, "tls.keystore", "PKCS#12"},
            {"tls.keystore = " + p12 + "\ntls.keystore-password = " + PASSWORD + "\ntls.certificate = " + crt
                + "\n", "", 11, "tls.certificate", "not both"},
            {"", "tls.certificate = " + crt + "\n", 12, "tls.certificate", "tls.private-key is missing"},
            {"", "tls.certificate = " + crt + "\ntls.private-key = " + otherKey + "\n", 13, "tls.private-key",
                "not the private key"},
            {"", "tls.certificate = " + key + "\ntls.private-key = " + key + "\n", 12, "tls.certificate",
                "certificate"},
            {"", "tls.certificate = " + crt + "\ntls.private-key = " + crt + "\n", 13, "tls.private-key",
                "BEGIN PRIVATE KEY"},
        };
        for (Object[] c : cases) {
            Path conf = descriptor((String) c[0], (String) c[1]);
            ConfigException e = catchThrowableOfType(ConfigException.class, () -> DescriptorParser.parse(conf));
            assertThat(e).as(c[0] + " " + c[1]).isNotNull();
            assertThat(List.<Object>of(e.line(), e.key())).as(e.getMessage()).containsExactly(c[2], c[3]);
            assertThat(e.reason()).as(e.getMessage()).contains((String) c[4]);
        }
    }
}
