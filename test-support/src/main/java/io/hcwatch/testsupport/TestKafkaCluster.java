package io.hcwatch.testsupport;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * A real single-node KRaft cluster in this JVM for integration tests.
 *
 * <p>Internal topics are set to replication factor 1: with the broker defaults of 3 the
 * consumer-offsets and transaction-state topics can never be created on one node and Kafka
 * Streams waits for them silently.
 */
public final class TestKafkaCluster implements AutoCloseable {

    private final KafkaClusterTestKit cluster;

    private TestKafkaCluster(KafkaClusterTestKit cluster) {
        this.cluster = cluster;
    }

    public static TestKafkaCluster start() {
        return start(Map.of());
    }

    public static TestKafkaCluster start(Map<String, Object> brokerOverrides) {
        try {
            KafkaClusterTestKit.Builder builder = new KafkaClusterTestKit.Builder(
                    new TestKitNodes.Builder()
                            .setCombined(true)
                            .setNumBrokerNodes(1)
                            .setNumControllerNodes(1)
                            .build());
            // strings, not numbers: the broker's config parser rejects an Integer for its short-typed settings
            Map.of(
                    "offsets.topic.replication.factor", "1",
                    "offsets.topic.num.partitions", "4",
                    "transaction.state.log.replication.factor", "1",
                    "transaction.state.log.min.isr", "1",
                    "share.coordinator.state.topic.replication.factor", "1",
                    "share.coordinator.state.topic.min.isr", "1",
                    "group.initial.rebalance.delay.ms", "0",
                    "auto.create.topics.enable", "false")
                    .forEach(builder::setConfigProp);
            brokerOverrides.forEach(builder::setConfigProp);
            KafkaClusterTestKit kit = builder.build();
            kit.format();
            kit.startup();
            kit.waitForReadyBrokers();
            return new TestKafkaCluster(kit);
        } catch (Exception e) {
            throw new IllegalStateException("could not start the in-process Kafka cluster", e);
        }
    }

    public String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    public Admin admin() {
        return Admin.create(Map.of("bootstrap.servers", bootstrapServers()));
    }

    public void createTopics(int partitions, String... names) {
        createTopics(partitions, List.of(names));
    }

    public void createTopics(int partitions, Collection<String> names) {
        try (Admin admin = admin()) {
            admin.createTopics(names.stream().map(n -> new NewTopic(n, partitions, (short) 1)).toList())
                    .all()
                    .get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not create topics " + names, e);
        }
    }

    @Override
    public void close() {
        try {
            cluster.close();
        } catch (Exception e) {
            throw new IllegalStateException("could not stop the in-process Kafka cluster", e);
        }
    }
}
