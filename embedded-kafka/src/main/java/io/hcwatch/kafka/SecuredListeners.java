package io.hcwatch.kafka;

import java.nio.file.Path;
import java.util.Map;

/**
 * Two listeners of a secured cluster, beside the broker's plaintext one (which the broker itself and
 * a test's own admin keep using): {@code SASL_SSL} with SCRAM-SHA-512 logins, as Amazon MSK and most
 * self-run clusters offer them, and PLAIN ones, as Confluent Cloud takes its API keys; and
 * {@code SSL} requiring a client certificate (mutual TLS). Both
 * present the key in {@code keystore}; the mutual-TLS listener trusts the certificates in
 * {@code truststore}. The caller makes the stores, so no key is ever checked in.
 *
 * @param storePassword password of both PKCS12 stores (and of the key in the keystore)
 * @param users         user names and passwords: SCRAM-SHA-512 credentials written into the cluster's
 *                      metadata when it is formatted (so they hold from the first connection on), and
 *                      the PLAIN logins of the listener's JAAS configuration
 */
public record SecuredListeners(Path keystore, Path truststore, String storePassword, Map<String, String> users) {

    public static final String SCRAM_MECHANISM = "SCRAM-SHA-512";
    public static final String PLAIN_MECHANISM = "PLAIN";

    public SecuredListeners {
        users = Map.copyOf(users);
    }

    /** Passwords stay out of anything that prints this. */
    @Override
    public String toString() {
        return "SecuredListeners[keystore=" + keystore + ", truststore=" + truststore + ", users=" + users.keySet() + "]";
    }
}
