package io.hcwatch.registry;

import org.apache.avro.Schema;

/**
 * The part of the Confluent Schema Registry API that serializers and deserializers use.
 *
 * <p>Implementations cache what never changes (an id's schema, a subject's id for a schema),
 * so a serde asks the registry once per schema, not once per record.
 */
public interface SchemaRegistryClient {

    /** Registers {@code schema} under {@code subject} (or finds it there) and returns its global id. */
    int register(String subject, Schema schema);

    /** The schema with this global id. */
    Schema getById(int id);

    /** The newest version registered under {@code subject}. */
    RegisteredSchema getLatest(String subject);

    /** The id and version of {@code schema} under {@code subject}, without registering it. */
    RegisteredSchema lookup(String subject, Schema schema);

    /** Whether {@code schema} may be registered as the next version of {@code subject}. */
    boolean testCompatibility(String subject, Schema schema);
}
