package io.hcwatch.kafka;

import java.nio.file.Path;
import java.util.Map;

/**
 * Two listeners of a secured cluster, beside the broker's plaintext one (which the broker itself and
 * a test's own admin keep using): {@code SASL_SSL} with SCRAM-SHA-512 logins, as Amazon MSK and most
 * self-run clusters offer them, and {@code SSL} requiring a client certificate (mutual TLS). Both
 * present the key in {@code keystore}; the mutual-TLS listener trusts the certificates in
 * {@code truststore}. The caller makes the stores, so no key is ever checked in.
 *
 * @param storePassword password of both PKCS12 stores (and of the key in the keystore)
 * @param scramUsers    SCRAM-SHA-512 user names and passwords, written into the cluster's metadata
 *                      when it is formatted, so they hold from the first connection on
 */
public record SecuredListeners(Path keystore, Path truststore, String storePassword, Map<String, String> scramUsers) {

    public static final String SCRAM_MECHANISM = "SCRAM-SHA-512";

    public SecuredListeners {
        scramUsers = Map.copyOf(scramUsers);
    }

    /** Passwords stay out of anything that prints this. */
    @Override
    public String toString() {
        return "SecuredListeners[keystore=" + keystore + ", truststore=" + truststore + ", scramUsers=" + scramUsers.keySet() + "]";
    }
}
