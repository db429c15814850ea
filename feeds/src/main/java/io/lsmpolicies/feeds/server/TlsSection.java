package io.lsmpolicies.feeds.server;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.UnrecoverableKeyException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.net.ssl.KeyManagerFactory;

/**
 * The {@code tls.*} keys of {@code [http]} and {@code [feed/<name>]}: a server TLS context (Netty's
 * {@code SslHandler} on the JDK's TLS), from either
 * <ul>
 *   <li>a PKCS#12 keystore: {@code tls.keystore} and its password, {@code tls.keystore-password} or (to keep it out
 *       of the descriptor) {@code tls.keystore-password-file}, the file's first line; or</li>
 *   <li>PEM files: {@code tls.certificate} (the certificate chain, the server's first) and {@code tls.private-key}
 *       (a PKCS#8 key, {@code BEGIN PRIVATE KEY}, or an encrypted one, {@code BEGIN ENCRYPTED PRIVATE KEY}, with
 *       {@code tls.private-key-password} or {@code tls.private-key-password-file}), which must belong to the
 *       certificate.</li>
 * </ul>
 * Everything is loaded and checked here, so a missing file, a wrong password or a key that does not match is a
 * {@link ConfigException} naming the key's line before anything starts. Relative paths resolve against the
 * working directory.
 *
 * <p>Why the PEM files are read here rather than handed to Netty's {@code SslContextBuilder.forServer(certFile,
 * keyFile)}, which reads the same files: Netty reports a bad file as an {@code IllegalArgumentException} without
 * saying which of the two it was, and it does not check that the key belongs to the certificate (a mismatched pair
 * fails only at the first handshake, after the server reported itself up). The context itself is Netty's builder,
 * given the parsed key and chain. An encrypted PEM key ({@code BEGIN ENCRYPTED PRIVATE KEY}) is decrypted here with
 * the JDK's PKCS#8 support given {@code tls.private-key-password} (or {@code -file}), for the same reasons.
 */
final class TlsSection {
    static final String KEYSTORE = "tls.keystore";
    static final String KEYSTORE_PASSWORD = "tls.keystore-password";
    static final String KEYSTORE_PASSWORD_FILE = "tls.keystore-password-file";
    static final String CERTIFICATE = "tls.certificate";
    static final String PRIVATE_KEY = "tls.private-key";
    static final String PRIVATE_KEY_PASSWORD = "tls.private-key-password";
    static final String PRIVATE_KEY_PASSWORD_FILE = "tls.private-key-password-file";
    static final Set<String> KEYS = Set.of(KEYSTORE, KEYSTORE_PASSWORD, KEYSTORE_PASSWORD_FILE, CERTIFICATE,
            PRIVATE_KEY, PRIVATE_KEY_PASSWORD, PRIVATE_KEY_PASSWORD_FILE);

    private final Path file;
    private final IniFile.Section section;

    private TlsSection(Path file, IniFile.Section section) {
        this.file = file;
        this.section = section;
    }

    /** The section's TLS context, or null if it has no {@code tls.*} key. */
    static SslContext read(Path file, IniFile.Section section) throws ConfigException {
        return new TlsSection(file, section).read();
    }

    private SslContext read() throws ConfigException {
        Map<String, IniFile.Entry> m = section.entries();
        IniFile.Entry keystore = m.get(KEYSTORE);
        IniFile.Entry password = m.get(KEYSTORE_PASSWORD);
        IniFile.Entry passwordFile = m.get(KEYSTORE_PASSWORD_FILE);
        IniFile.Entry cert = m.get(CERTIFICATE);
        IniFile.Entry key = m.get(PRIVATE_KEY);
        IniFile.Entry keyPassword = m.get(PRIVATE_KEY_PASSWORD);
        IniFile.Entry keyPasswordFile = m.get(PRIVATE_KEY_PASSWORD_FILE);
        if (keystore == null && password == null && passwordFile == null && cert == null && key == null
                && keyPassword == null && keyPasswordFile == null) {
            return null;
        }
        if ((keyPassword != null || keyPasswordFile != null) && key == null) {
            throw error(keyPassword != null ? keyPassword : keyPasswordFile, "a private key password without "
                    + PRIVATE_KEY);
        }
        if (keystore != null && (cert != null || key != null)) {
            IniFile.Entry later = cert != null ? cert : key;
            throw error(later, "give either " + KEYSTORE + " or " + CERTIFICATE + " and " + PRIVATE_KEY
                    + ", not both");
        }
        if (keystore == null && cert == null && key == null) {
            IniFile.Entry p = password != null ? password : passwordFile;
            throw error(p, "a keystore password without " + KEYSTORE);
        }
        if (keystore != null) {
            return fromKeystore(keystore, password, passwordFile);
        }
        if (password != null || passwordFile != null) {
            throw error(password != null ? password : passwordFile, "a keystore password, but the TLS key is given"
                    + " as PEM files (" + CERTIFICATE + ", " + PRIVATE_KEY + "); an encrypted key's password is "
                    + PRIVATE_KEY_PASSWORD + " or " + PRIVATE_KEY_PASSWORD_FILE);
        }
        if (keyPassword != null && keyPasswordFile != null) {
            throw error(keyPassword.line() > keyPasswordFile.line() ? keyPassword : keyPasswordFile, "give either "
                    + PRIVATE_KEY_PASSWORD + " or " + PRIVATE_KEY_PASSWORD_FILE + ", not both");
        }
        if (cert == null || key == null) {
            IniFile.Entry given = cert != null ? cert : key;
            throw error(given, CERTIFICATE + " and " + PRIVATE_KEY + " go together; " + (cert == null
                    ? CERTIFICATE : PRIVATE_KEY) + " is missing in [" + section.name() + "]");
        }
        return fromPem(cert, key, keyPassword != null ? keyPassword : keyPasswordFile);
    }

    private SslContext fromKeystore(IniFile.Entry keystore, IniFile.Entry password, IniFile.Entry passwordFile)
            throws ConfigException {
        if (password != null && passwordFile != null) {
            throw error(password.line() > passwordFile.line() ? password : passwordFile, "give either "
                    + KEYSTORE_PASSWORD + " or " + KEYSTORE_PASSWORD_FILE + ", not both");
        }
        if (password == null && passwordFile == null) {
            throw error(keystore, "needs " + KEYSTORE_PASSWORD + " or " + KEYSTORE_PASSWORD_FILE);
        }
        IniFile.Entry passwordAt = password != null ? password : passwordFile;
        char[] secret = password != null ? password.value().toCharArray() : firstLine(passwordFile).toCharArray();
        byte[] bytes = readFile(keystore);
        KeyStore ks;
        try {
            ks = KeyStore.getInstance("PKCS12");
            ks.load(new ByteArrayInputStream(bytes), secret);
        } catch (IOException e) {
            if (e.getCause() instanceof UnrecoverableKeyException
                    || String.valueOf(e.getMessage()).toLowerCase(java.util.Locale.ROOT).contains("password")) {
                throw error(passwordAt, "the password does not open " + path(keystore) + " (" + e.getMessage()
                        + ")");
            }
            throw error(keystore, path(keystore) + " is not a PKCS#12 keystore: " + e.getMessage());
        } catch (GeneralSecurityException e) {
            throw error(keystore, path(keystore) + " is not a usable PKCS#12 keystore: " + e);
        }
        try {
            boolean hasKey = false;
            for (String alias : Collections.list(ks.aliases())) {
                hasKey |= ks.isKeyEntry(alias);
            }
            if (!hasKey) {
                throw error(keystore, path(keystore) + " holds no private key entry");
            }
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, secret);
            return SslContextBuilder.forServer(kmf).sslProvider(SslProvider.JDK).build();
        } catch (UnrecoverableKeyException e) {
            throw error(passwordAt, "the password does not open the key in " + path(keystore) + ": "
                    + e.getMessage());
        } catch (GeneralSecurityException | IOException e) {
            throw error(keystore, "cannot use " + path(keystore) + ": " + e);
        }
    }

    private SslContext fromPem(IniFile.Entry cert, IniFile.Entry key, IniFile.Entry keyPassword)
            throws ConfigException {
        List<X509Certificate> chain = new ArrayList<>();
        try (InputStream in = new ByteArrayInputStream(readFile(cert))) {
            for (var c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                chain.add((X509Certificate) c);
            }
        } catch (CertificateException | IOException | RuntimeException e) {
            throw error(cert, path(cert) + " is not a PEM certificate chain: " + e.getMessage());
        }
        if (chain.isEmpty()) {
            throw error(cert, path(cert) + " holds no certificate");
        }
        PrivateKey privateKey = privateKey(key, keyPassword);
        if (!matches(privateKey, chain.get(0))) {
            throw error(key, path(key) + " is not the private key of the certificate in " + path(cert) + " ("
                    + chain.get(0).getSubjectX500Principal() + ")");
        }
        try {
            return SslContextBuilder.forServer(privateKey, chain.toArray(new X509Certificate[0]))
                    .sslProvider(SslProvider.JDK).build();
        } catch (IOException | RuntimeException e) {
            throw error(cert, "cannot use " + path(cert) + " with " + path(key) + ": " + e);
        }
    }

    /**
     * The PEM key of {@code key}: an unencrypted PKCS#8 key ({@code BEGIN PRIVATE KEY}), or an encrypted one
     * ({@code BEGIN ENCRYPTED PRIVATE KEY}, as {@code openssl pkcs8 -topk8} writes) with the password of
     * {@code keyPassword} ({@code tls.private-key-password}, or the first line of
     * {@code tls.private-key-password-file}), decrypted by the JDK's PKCS#8 support.
     */
    private PrivateKey privateKey(IniFile.Entry key, IniFile.Entry keyPassword) throws ConfigException {
        String pem = new String(readFile(key), StandardCharsets.US_ASCII);
        boolean encrypted = pem.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----");
        if (encrypted && keyPassword == null) {
            throw error(key, path(key) + " is encrypted; give its password (" + PRIVATE_KEY_PASSWORD + " or "
                    + PRIVATE_KEY_PASSWORD_FILE + ")");
        }
        if (!encrypted && keyPassword != null) {
            throw error(keyPassword, path(key) + " is not an encrypted key ('BEGIN ENCRYPTED PRIVATE KEY'): it has no"
                    + " password");
        }
        String type = encrypted ? "ENCRYPTED PRIVATE KEY" : "PRIVATE KEY";
        int begin = pem.indexOf("-----BEGIN " + type + "-----");
        int end = pem.indexOf("-----END " + type + "-----");
        if (begin < 0 || end < begin) {
            throw error(key, path(key) + " holds no PEM 'BEGIN PRIVATE KEY' block (a PKCS#8 key; convert an"
                    + " 'RSA PRIVATE KEY' with: openssl pkcs8 -topk8 -nocrypt)");
        }
        byte[] der;
        try {
            der = Base64.getMimeDecoder().decode(pem.substring(begin + ("-----BEGIN " + type + "-----").length(), end));
        } catch (IllegalArgumentException e) {
            throw error(key, path(key) + ": the key is not valid base64");
        }
        if (encrypted) {
            String password = keyPassword.key().equals(PRIVATE_KEY_PASSWORD) ? keyPassword.value()
                    : firstLine(keyPassword);
            try {
                javax.crypto.EncryptedPrivateKeyInfo info = new javax.crypto.EncryptedPrivateKeyInfo(der);
                java.security.AlgorithmParameters params = info.getAlgParameters();
                // PBES2 (openssl's default) is named by its parameters, e.g. PBEWithHmacSHA256AndAES_256.
                String algorithm = params != null ? params.toString() : info.getAlgName();
                javax.crypto.SecretKey secret = javax.crypto.SecretKeyFactory.getInstance(algorithm)
                        .generateSecret(new javax.crypto.spec.PBEKeySpec(password.toCharArray()));
                javax.crypto.Cipher cipher = javax.crypto.Cipher.getInstance(algorithm);
                cipher.init(javax.crypto.Cipher.DECRYPT_MODE, secret, params);
                der = info.getKeySpec(cipher).getEncoded();
            } catch (IOException | GeneralSecurityException | RuntimeException e) {
                throw error(keyPassword, "cannot decrypt " + path(key) + " with this password (a wrong password, or"
                        + " an encryption the JDK does not support): " + e.getMessage());
            }
        }
        for (String algorithm : List.of("RSA", "EC", "Ed25519", "Ed448", "RSASSA-PSS", "DSA")) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException | RuntimeException e) {
                // not this algorithm
            }
        }
        throw error(key, path(key) + " is not a PKCS#8 RSA, EC or EdDSA private key");
    }

    /** Whether {@code key} signs what the certificate's public key verifies. */
    private static boolean matches(PrivateKey key, X509Certificate cert) {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "Ed25519", "Ed448", "EdDSA" -> key.getAlgorithm();
            case "DSA" -> "SHA256withDSA";
            default -> null;
        };
        if (algorithm == null) {
            return true; // nothing to check with; the handshake will tell
        }
        try {
            byte[] probe = "lsm-server key check".getBytes(StandardCharsets.US_ASCII);
            Signature s = Signature.getInstance(algorithm);
            s.initSign(key);
            s.update(probe);
            byte[] signature = s.sign();
            Signature v = Signature.getInstance(algorithm);
            v.initVerify(cert.getPublicKey());
            v.update(probe);
            return v.verify(signature);
        } catch (GeneralSecurityException | RuntimeException e) {
            return false;
        }
    }

    private String firstLine(IniFile.Entry e) throws ConfigException {
        String text = new String(readFile(e), StandardCharsets.UTF_8);
        int nl = text.indexOf('\n');
        String line = (nl < 0 ? text : text.substring(0, nl)).strip();
        if (line.isEmpty()) {
            throw error(e, path(e) + " is empty");
        }
        return line;
    }

    private byte[] readFile(IniFile.Entry e) throws ConfigException {
        Path p = path(e);
        try {
            if (Files.size(p) > 1 << 20) {
                throw error(e, p + " is larger than 1 MiB");
            }
            return Files.readAllBytes(p);
        } catch (NoSuchFileException x) {
            throw error(e, "no such file: " + p);
        } catch (IOException x) {
            throw error(e, "cannot read " + p + ": " + x);
        }
    }

    private Path path(IniFile.Entry e) throws ConfigException {
        if (e.value().isEmpty()) {
            throw error(e, "needs a file name");
        }
        try {
            return Path.of(e.value()).toAbsolutePath().normalize();
        } catch (InvalidPathException x) {
            throw error(e, "'" + e.value() + "' is not a valid path: " + x.getReason());
        }
    }

    private ConfigException error(IniFile.Entry e, String reason) {
        return new ConfigException(file, e.line(), e.key(), reason);
    }
}
