package io.hcwatch.registry;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/** Builds the TLS context of an https registry connection from key and trust stores. */
public final class RegistryTls {

    private RegistryTls() {
    }

    /**
     * A context trusting {@code truststore} (the JVM's default trust when null) and presenting
     * the key in {@code keystore} for mutual TLS (none when null).
     */
    public static SSLContext sslContext(StoreFile truststore, StoreFile keystore, char[] keyPassword) {
        try {
            TrustManager[] trust = truststore == null ? null : trustManagers(load(truststore, "truststore"));
            KeyManager[] keys = keystore == null ? null
                    : keyManagers(load(keystore, "keystore"), keyPassword != null ? keyPassword : keystore.password());
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys, trust, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("could not build the registry TLS context: " + e.getMessage(), e);
        }
    }

    private static TrustManager[] trustManagers(KeyStore store) throws GeneralSecurityException {
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(store);
        return factory.getTrustManagers();
    }

    private static KeyManager[] keyManagers(KeyStore store, char[] keyPassword) throws GeneralSecurityException {
        KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(store, keyPassword);
        return factory.getKeyManagers();
    }

    private static KeyStore load(StoreFile file, String role) {
        try (InputStream in = Files.newInputStream(file.path())) {
            KeyStore store = KeyStore.getInstance(file.type());
            store.load(in, file.password());
            return store;
        } catch (IOException | GeneralSecurityException e) {
            // The exception text names the file and type only; store passwords stay out of it.
            throw new IllegalArgumentException("could not load the registry " + role + " " + file.path()
                    + " (type " + file.type() + "): " + e.getMessage(), e);
        }
    }
}
