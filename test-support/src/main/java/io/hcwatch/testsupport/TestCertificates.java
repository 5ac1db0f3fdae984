package io.hcwatch.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A TLS identity made by the test that needs it, so no key is ever checked in: one run of the
 * JDK's keytool makes a self-signed EC key for {@code localhost} and {@code 127.0.0.1} (a PKCS12
 * keystore), and a truststore holding its certificate is written in Java. The same key can serve
 * a server and, for mutual TLS, its client.
 *
 * @param keystore   the key and its certificate
 * @param truststore the certificate alone
 * @param password   of both stores and of the key
 */
public record TestCertificates(Path keystore, Path truststore, String password) {

    /** Makes the stores in {@code dir} as {@code <name>.p12} and {@code <name>-trust.p12}. */
    public static TestCertificates selfSigned(Path dir, String name, String password) {
        Path keystore = dir.resolve(name + ".p12");
        Path truststore = dir.resolve(name + "-trust.p12");
        keytool(dir, "-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
                "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2", "-storetype", "PKCS12",
                "-keystore", keystore.toString(), "-storepass", password);
        try {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(keystore)) {
                keys.load(in, password.toCharArray());
            }
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry(name, keys.getCertificate(name));
            try (OutputStream out = Files.newOutputStream(truststore)) {
                trust.store(out, password.toCharArray());
            }
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("could not write the truststore " + truststore, e);
        }
        return new TestCertificates(keystore, truststore, password);
    }

    private static void keytool(Path dir, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        try {
            Path log = Files.createTempFile(dir, "keytool", ".log");
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("keytool did not finish within 60 s: " + String.join(" ", args));
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException("keytool " + args[0] + " failed: " + Files.readString(log));
            }
        } catch (IOException e) {
            throw new IllegalStateException("could not run keytool", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while keytool ran", e);
        }
    }
}
