package io.hcwatch.cluster;

import io.hcwatch.cli.UsageException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks at start that the topics a command writes to exist. A producer sending to a topic that
 * does not exist (on a cluster that does not create topics) waits {@code max.block.ms} on each
 * send and fails, again and again, with nothing but log lines to say why: a stall that looks like
 * quiet. Missing topics stop the command at once with exit 2 and one line naming them.
 */
public final class RequiredTopics {

    private static final Logger LOG = LoggerFactory.getLogger(RequiredTopics.class);
    /** Short: a cluster that does not answer only delays the start, by this much, before a warning. */
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    /** Metadata reaches every broker within a second or two; this waits up to about 3 s for it. */
    private static final int UNKNOWN_ATTEMPTS = 7;
    private static final Duration UNKNOWN_PAUSE = Duration.ofMillis(500);

    private RequiredTopics() {
    }

    /** The topics the cluster says do not exist; one that cannot be checked is taken as existing, with a warning. */
    private static List<String> unknown(Admin admin, List<String> topics, int millis) {
        List<String> missing = new ArrayList<>();
        Map<String, KafkaFuture<TopicDescription>> described = admin.describeTopics(topics).topicNameValues();
        for (String topic : topics) {
            try {
                described.get(topic).get(millis + 1_000L, TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                    missing.add(topic);
                } else {
                    LOG.warn("could not check that topic {} exists: {}; starting anyway", topic, e.getCause().toString());
                }
            } catch (TimeoutException e) {
                LOG.warn("could not check that topic {} exists within {} s; starting anyway", topic, TIMEOUT.toSeconds());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return List.of();
            }
        }
        return missing;
    }

    /**
     * @param clientConfig a client's settings (bootstrap servers and security; other keys are left out)
     * @throws UsageException naming the topics the cluster says do not exist (exit 2); a cluster that
     *                                does not answer, or does not let us look, only logs a warning
     */
    public static void verify(Map<String, ?> clientConfig, Collection<String> topics, String clientId) {
        Map<String, Object> settings = ClusterLogin.adminSettings(clientConfig);
        int millis = (int) TIMEOUT.toMillis();
        settings.put(AdminClientConfig.CLIENT_ID_CONFIG, clientId + "-topic-check");
        settings.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, millis);
        settings.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, millis);
        List<String> missing = new ArrayList<>(topics);
        try (Admin admin = Admin.create(settings)) {
            // A topic created a moment ago is known to the controller before every broker's metadata
            // has it: "unknown" is asked again for a short while before it counts as missing.
            for (int attempt = 1; !missing.isEmpty(); attempt++) {
                missing = unknown(admin, missing, millis);
                if (missing.isEmpty() || attempt == UNKNOWN_ATTEMPTS) {
                    break;
                }
                try {
                    Thread.sleep(UNKNOWN_PAUSE.toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
        if (!missing.isEmpty()) {
            throw new UsageException("topic" + (missing.size() == 1 ? " " : "s ") + String.join(", ", missing)
                    + (missing.size() == 1 ? " does" : " do") + " not exist on Kafka at "
                    + settings.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG)
                    + ": create " + (missing.size() == 1 ? "it" : "them") + " (docs/contract.md, Topics) or name existing ones");
        }
    }
}
