package io.hcwatch.serde;

import org.apache.kafka.common.errors.RetriableException;

/**
 * A value could not be decoded or encoded because the Schema Registry did not answer for its
 * schema: the value may be perfectly good, so it must be neither dead-lettered nor committed, only
 * tried again once the registry answers. Whatever was fetched before stays cached meanwhile.
 */
public final class SchemaRegistryUnavailableException extends RetriableException {

    public SchemaRegistryUnavailableException(int schemaId, String topic, RuntimeException cause) {
        super("schema registry unavailable while fetching writer schema " + schemaId + " for " + topic + ": "
                + cause.getMessage(), cause);
    }

    public SchemaRegistryUnavailableException(String subject, RuntimeException cause) {
        super("schema registry unavailable while looking up the schema id for subject " + subject + ": "
                + cause.getMessage(), cause);
    }
}
