package io.hcwatch.collect;

import io.hcwatch.cluster.ClientSecurity;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What every collector shares: where to publish, in which format, and where to serve its metrics.
 * Values are Avro in the Confluent wire format ({@code format=avro}, the default, with
 * {@code schema.registry.url}) or the JSON forms the stream app also accepts ({@code format=json}).
 *
 * @param producerOverrides Kafka producer settings: {@code security.protocol}, {@code sasl.*} and
 *                          {@code ssl.*} ({@link ClientSecurity}), then those given as
 *                          {@code kafka.<setting>}, which win
 * @param serdeConfig       registry settings for the Avro serializer (empty for JSON)
 * @param metricsPort       {@value #METRICS_OFF} turns the endpoints off; 0 takes any free port
 */
public record PublishConfig(String bootstrapServers, Format format, Map<String, Object> serdeConfig,
                            Map<String, Object> producerOverrides, String metricsHost, int metricsPort) {

    public static final int METRICS_OFF = -1;

    public enum Format { AVRO, JSON }

    public static PublishConfig read(ConfigReader in, int defaultMetricsPort) {
        String bootstrap = in.required("bootstrap.servers");
        String formatText = in.text("format", "avro").toLowerCase(Locale.ROOT);
        Format format = switch (formatText) {
            case "avro" -> Format.AVRO;
            case "json" -> Format.JSON;
            default -> throw ConfigException.key("format", "expected avro or json, got '" + formatText + "'");
        };
        Map<String, Object> serde = new LinkedHashMap<>();
        String registry = in.text("schema.registry.url", null);
        in.withPrefix("schema.registry.").forEach((k, v) -> serde.put("schema.registry." + k, v));
        in.withPrefix("basic.auth.").forEach((k, v) -> serde.put("basic.auth." + k, v));
        String autoRegister = in.text("auto.register.schemas", null);
        if (format == Format.AVRO) {
            if (registry == null) {
                throw ConfigException.key("schema.registry.url", "is required with format=avro (or set format=json)");
            }
            if (autoRegister != null) {
                serde.put("auto.register.schemas", autoRegister);
            }
        } else {
            serde.clear();
        }
        Map<String, Object> producer = new LinkedHashMap<>();
        String protocol = in.text(ClientSecurity.SECURITY_PROTOCOL, null);
        if (protocol != null) {
            producer.put(ClientSecurity.SECURITY_PROTOCOL, protocol);
        }
        in.withPrefix("sasl.").forEach((k, v) -> producer.put("sasl." + k, v));
        in.withPrefix("ssl.").forEach((k, v) -> producer.put("ssl." + k, v));
        producer.putAll(in.withPrefix("kafka."));
        int metricsPort = in.integer("metrics.port", defaultMetricsPort, METRICS_OFF, 65_535);
        return new PublishConfig(bootstrap, format, Map.copyOf(serde), Map.copyOf(producer),
                in.text("metrics.host", "0.0.0.0"), metricsPort);
    }

    /** Registry settings and client overrides may hold passwords, so only their keys are shown. */
    @Override
    public String toString() {
        return "PublishConfig[bootstrapServers=" + bootstrapServers + ", format=" + format + ", serdeConfig="
                + serdeConfig.keySet() + ", producerOverrides=" + producerOverrides.keySet() + ", metrics=" + metricsHost
                + ":" + metricsPort + "]";
    }
}
