package io.hcwatch.it;

import io.hcwatch.kafka.EmbeddedKafkaBroker;
import io.hcwatch.registry.InMemorySchemaRegistry;
import io.hcwatch.registry.SchemaRegistryServer;

/**
 * A real broker and an HTTP schema registry, started once for a test class whose runs each take
 * topics of their own ({@link BrokerPerClass}): a broker's start and stop cost seconds a run.
 */
final class BrokerAndRegistry implements AutoCloseable {

    final EmbeddedKafkaBroker kafka;
    final SchemaRegistryServer registry;
    private int namespaces;

    BrokerAndRegistry() {
        kafka = EmbeddedKafkaBroker.start();
        registry = new SchemaRegistryServer(new InMemorySchemaRegistry()).start();
    }

    /** A prefix no other run on this broker has: for its topic names and application.id. */
    synchronized String nextNamespace() {
        return "run" + ++namespaces + "-";
    }

    @Override
    public void close() {
        registry.close();
        kafka.close();
    }
}
