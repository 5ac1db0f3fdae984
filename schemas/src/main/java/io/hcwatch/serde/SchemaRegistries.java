package io.hcwatch.serde;

import io.hcwatch.registry.InMemorySchemaRegistry;
import io.hcwatch.registry.RestSchemaRegistryClient;
import io.hcwatch.registry.SchemaRegistryClient;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;

/** Builds the registry client a serde's configuration asks for. */
public final class SchemaRegistries {

    private SchemaRegistries() {
    }

    /** An in-memory registry for {@code mock://scope}, a REST client for a comma-separated list of http(s) URLs. */
    public static SchemaRegistryClient fromConfig(Map<String, ?> configs) {
        Object url = configs.get(SerdeConfig.SCHEMA_REGISTRY_URL);
        if (url == null || url.toString().isBlank()) {
            throw new ConfigException("missing " + SerdeConfig.SCHEMA_REGISTRY_URL);
        }
        String first = url.toString().split(",")[0].trim();
        if (first.startsWith(SerdeConfig.MOCK_SCHEME)) {
            return InMemorySchemaRegistry.scope(first.substring(SerdeConfig.MOCK_SCHEME.length()));
        }
        return new RestSchemaRegistryClient(RestRegistryConfig.settings(configs));
    }
}
