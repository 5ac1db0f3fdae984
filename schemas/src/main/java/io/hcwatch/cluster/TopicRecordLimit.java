package io.hcwatch.cluster;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The largest record a topic takes ({@code max.message.bytes}, the topic's own or the broker's
 * default), read at start: a record above it fails its producer, which in the stream app replaces
 * the stream thread, which writes the same record again.
 */
public final class TopicRecordLimit {

    private static final Logger LOG = LoggerFactory.getLogger(TopicRecordLimit.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private TopicRecordLimit() {
    }

    /**
     * @param clientConfig a client's settings (bootstrap servers and security; other keys are left out)
     * @return the topic's {@code max.message.bytes}; empty when the cluster does not answer within
     *         5 s or does not let us look (logged)
     */
    public static OptionalInt of(Map<String, ?> clientConfig, String topic, String clientId) {
        Map<String, Object> settings = ClusterLogin.adminSettings(clientConfig);
        int millis = (int) TIMEOUT.toMillis();
        settings.put(AdminClientConfig.CLIENT_ID_CONFIG, clientId + "-topic-limit");
        settings.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, millis);
        settings.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, millis);
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        try (Admin admin = Admin.create(settings)) {
            Config config = admin.describeConfigs(List.of(resource)).values().get(resource)
                    .get(millis + 1_000L, TimeUnit.MILLISECONDS);
            ConfigEntry entry = config.get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
            if (entry == null || entry.value() == null) {
                LOG.warn("topic {} has no {} the cluster tells", topic, TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
                return OptionalInt.empty();
            }
            return OptionalInt.of(Integer.parseInt(entry.value()));
        } catch (ExecutionException e) {
            LOG.warn("could not read {} of topic {}: {}", TopicConfig.MAX_MESSAGE_BYTES_CONFIG, topic, e.getCause().toString());
        } catch (TimeoutException e) {
            LOG.warn("could not read {} of topic {} within {} s", TopicConfig.MAX_MESSAGE_BYTES_CONFIG, topic, TIMEOUT.toSeconds());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (NumberFormatException e) {
            LOG.warn("topic {} has a {} that is not a number: {}", topic, TopicConfig.MAX_MESSAGE_BYTES_CONFIG, e.getMessage());
        }
        return OptionalInt.empty();
    }
}
