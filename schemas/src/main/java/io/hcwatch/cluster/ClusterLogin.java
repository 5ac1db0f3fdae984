package io.hcwatch.cluster;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs in to the cluster once, before a command starts its own clients, when its settings ask for
 * TLS or SASL. Kafka's clients treat a refused login as fatal each in its own way (Kafka Streams
 * replaces the failed thread, which fails again; a producer fails every send), so the process
 * would look alive while doing nothing; refused here, the command stops with one line saying why.
 * A cluster that does not answer in time is no reason to stop (it may be starting up): the
 * clients then keep trying as they always did.
 */
public final class ClusterLogin {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(15);
    private static final Logger LOG = LoggerFactory.getLogger(ClusterLogin.class);

    private ClusterLogin() {
    }

    /**
     * @param clientConfig the settings a client of the command is made with (bootstrap servers and
     *                     security; other keys are left out)
     * @throws ClusterLoginException when the cluster refuses the login or TLS handshake, or the
     *                               settings cannot make a client
     */
    public static void verify(Map<String, ?> clientConfig, String clientId) {
        verify(List.of(clientConfig), clientId, DEFAULT_TIMEOUT);
    }

    /** As {@link #verify(Map, String)} for each of a command's clients whose connection settings differ. */
    public static void verifyEach(List<? extends Map<String, ?>> clientConfigs, String clientId) {
        verify(clientConfigs, clientId, DEFAULT_TIMEOUT);
    }

    static void verify(List<? extends Map<String, ?>> clientConfigs, String clientId, Duration timeout) {
        Set<Map<String, Object>> distinct = new LinkedHashSet<>();
        for (Map<String, ?> clientConfig : clientConfigs) {
            Object protocol = clientConfig.get(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG);
            if (protocol != null && !protocol.toString().strip().toUpperCase(Locale.ROOT).equals("PLAINTEXT")) {
                distinct.add(adminSettings(clientConfig));
            }
        }
        for (Map<String, Object> settings : distinct) {
            login(settings, clientId, timeout);
        }
    }

    static Map<String, Object> adminSettings(Map<String, ?> clientConfig) {
        Map<String, Object> settings = new HashMap<>();
        Set<String> adminKeys = AdminClientConfig.configNames();
        clientConfig.forEach((key, value) -> {
            if (adminKeys.contains(key) && !key.equals(AdminClientConfig.CLIENT_ID_CONFIG)) {
                settings.put(key, value);
            }
        });
        return settings;
    }

    private static void login(Map<String, Object> connection, String clientId, Duration timeout) {
        Map<String, Object> settings = new HashMap<>(connection);
        int millis = (int) timeout.toMillis();
        settings.put(AdminClientConfig.CLIENT_ID_CONFIG, clientId + "-login-check");
        settings.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, millis);
        settings.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, millis);
        String where = "Kafka at " + settings.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG) + " (" + describe(settings) + ")";
        Admin admin;
        try {
            admin = Admin.create(settings);
        } catch (KafkaException e) {
            throw new ClusterLoginException("cannot make a Kafka client for " + where + ": " + messages(e));
        }
        try {
            admin.describeCluster(new DescribeClusterOptions().timeoutMs(millis)).nodes()
                    .get(millis + 5_000L, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof SslAuthenticationException tls) {
                throw new ClusterLoginException("the TLS handshake with " + where + " failed: " + messages(tls)
                        + "; check ssl.truststore.* (the cluster's CA) and, for mutual TLS, ssl.keystore.*");
            }
            if (e.getCause() instanceof AuthenticationException refused) {
                throw new ClusterLoginException(where + " refused the login: " + messages(refused)
                        + "; check sasl.mechanism, sasl.jaas.config and the secrets it refers to");
            }
            LOG.warn("could not check the login to {}: {}; starting anyway, the clients keep trying", where,
                    messages(e.getCause()));
        } catch (TimeoutException e) {
            LOG.warn("{} did not answer within {} s; starting anyway, the clients keep trying", where, timeout.toSeconds());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            admin.close(Duration.ZERO);
        }
    }

    /** The settings that say how the login was tried; none of them is a secret. */
    private static String describe(Map<String, Object> settings) {
        String text = CommonClientConfigs.SECURITY_PROTOCOL_CONFIG + "=" + settings.get(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG);
        Object mechanism = settings.get(SaslConfigs.SASL_MECHANISM);
        return mechanism == null ? text : text + ", " + SaslConfigs.SASL_MECHANISM + "=" + mechanism;
    }

    /** The messages of an exception and its causes, on one line (Kafka's messages name a setting, never its secret value). */
    private static String messages(Throwable error) {
        StringBuilder text = new StringBuilder();
        for (Throwable e = error; e != null; e = e.getCause() == e ? null : e.getCause()) {
            String message = e.getMessage();
            if (message != null && !message.isBlank() && text.indexOf(message) < 0) {
                text.append(text.length() == 0 ? "" : ": ").append(message);
            }
        }
        return (text.length() == 0 ? error.getClass().getSimpleName() : text.toString()).replaceAll("[\\r\\n]+", " ");
    }

    /** The cluster refused the login, or the settings cannot make a client: a bad configuration. */
    public static final class ClusterLoginException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        ClusterLoginException(String message) {
            super(message);
        }
    }
}
