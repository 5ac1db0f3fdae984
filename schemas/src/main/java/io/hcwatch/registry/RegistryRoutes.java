package io.hcwatch.registry;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.hcwatch.registry.InMemorySchemaRegistry.Compatibility;
import java.net.URI;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

/**
 * The Confluent Schema Registry REST endpoints that serializers, deserializers and tools use,
 * answered from an {@link InMemorySchemaRegistry} with Confluent's JSON shapes and error codes.
 */
final class RegistryRoutes {

    private static final String LATEST = "latest";

    private final InMemorySchemaRegistry registry;

    RegistryRoutes(InMemorySchemaRegistry registry) {
        this.registry = registry;
    }

    RegistryResponse handle(String method, URI uri, String body) {
        List<String> path = segments(uri.getRawPath());
        String query = uri.getRawQuery() == null ? "" : uri.getRawQuery();
        if (path.isEmpty()) {
            return only("GET", method, () -> RegistryResponse.ok(Map.of()));
        }
        return switch (path.get(0)) {
            case "subjects" -> subjects(method, path, body);
            case "schemas" -> schemas(method, path);
            case "compatibility" -> compatibility(method, path, body);
            case "config" -> config(method, path, query, body);
            default -> notFound();
        };
    }

    private RegistryResponse subjects(String method, List<String> path, String body) {
        if (path.size() == 1) {
            return only("GET", method, () -> RegistryResponse.ok(registry.subjects()));
        }
        String subject = path.get(1);
        if (path.size() == 2) {
            return switch (method) {
                case "POST" -> RegistryResponse.ok(json(registry.lookup(subject, schemaFrom(body))));
                case "DELETE" -> RegistryResponse.ok(registry.deleteSubject(subject));
                default -> methodNotAllowed();
            };
        }
        if (!path.get(2).equals("versions") || path.size() > 5) {
            return notFound();
        }
        if (path.size() == 3) {
            return switch (method) {
                case "GET" -> RegistryResponse.ok(registry.versionNumbers(subject));
                case "POST" -> RegistryResponse.ok(Map.of("id", registry.register(subject, schemaFrom(body))));
                default -> methodNotAllowed();
            };
        }
        if (path.size() == 5 && !path.get(4).equals("schema")) {
            return notFound();
        }
        return only("GET", method, () -> {
            RegisteredSchema version = version(subject, path.get(3));
            return path.size() == 4 ? RegistryResponse.ok(json(version)) : RegistryResponse.okRaw(version.schema().toString());
        });
    }

    private RegistryResponse schemas(String method, List<String> path) {
        if (path.size() < 3 || path.size() > 4 || !path.get(1).equals("ids")
                || path.size() == 4 && !path.get(3).equals("schema")) {
            return notFound();
        }
        return only("GET", method, () -> {
            Schema schema = registry.getById(schemaId(path.get(2)));
            return path.size() == 4 ? RegistryResponse.okRaw(schema.toString())
                    : RegistryResponse.ok(Map.of("schema", schema.toString()));
        });
    }

    private RegistryResponse compatibility(String method, List<String> path, String body) {
        if (path.size() != 5 || !path.get(1).equals("subjects") || !path.get(3).equals("versions")) {
            return notFound();
        }
        return only("POST", method, () -> {
            String subject = path.get(2);
            Schema candidate = schemaFrom(body);
            // Against "latest" of a subject with nothing registered this is true, as in Confluent since 5.5.
            boolean compatible = path.get(4).equals(LATEST)
                    ? registry.testCompatibility(subject, candidate)
                    : registry.testCompatibility(subject, candidate, versionNumber(path.get(4)));
            return RegistryResponse.ok(Map.of("is_compatible", compatible));
        });
    }

    private RegistryResponse config(String method, List<String> path, String query, String body) {
        if (path.size() > 2) {
            return notFound();
        }
        if (path.size() == 1) {
            return switch (method) {
                case "GET" -> RegistryResponse.ok(Map.of("compatibilityLevel", registry.defaultCompatibility().name()));
                case "PUT" -> {
                    Compatibility level = levelFrom(body);
                    registry.setDefaultCompatibility(level);
                    yield RegistryResponse.ok(Map.of("compatibility", level.name()));
                }
                default -> methodNotAllowed();
            };
        }
        String subject = path.get(1);
        return switch (method) {
            case "GET" -> registry.subjectCompatibility(subject)
                    .or(() -> query.contains("defaultToGlobal=true")
                            ? Optional.of(registry.defaultCompatibility()) : Optional.empty())
                    .map(level -> RegistryResponse.ok(Map.of("compatibilityLevel", level.name())))
                    .orElseGet(() -> RegistryResponse.error(404, SchemaRegistryException.SUBJECT_COMPATIBILITY_NOT_CONFIGURED,
                            "Subject '" + subject + "' does not have subject-level compatibility configured"));
            case "PUT" -> {
                Compatibility level = levelFrom(body);
                registry.setSubjectCompatibility(subject, level);
                yield RegistryResponse.ok(Map.of("compatibility", level.name()));
            }
            default -> methodNotAllowed();
        };
    }

    private RegisteredSchema version(String subject, String version) {
        if (version.equals(LATEST) || version.equals("-1")) {
            return registry.getLatest(subject);
        }
        return registry.getVersion(subject, versionNumber(version));
    }

    private static int versionNumber(String text) {
        try {
            int version = Integer.parseInt(text);
            if (version >= 1) {
                return version;
            }
        } catch (NumberFormatException e) {
            // Falls through to Confluent's answer for a version that is not a number.
        }
        throw new SchemaRegistryException(422, SchemaRegistryException.INVALID_VERSION, "The specified version '" + text
                + "' is not a valid version id. Allowed values are between [1, 2^31-1] and the string \"latest\"");
    }

    private static int schemaId(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new SchemaRegistryException(404, SchemaRegistryException.SCHEMA_NOT_FOUND, "Schema " + text + " not found");
        }
    }

    private static Schema schemaFrom(String body) {
        JsonNode request = requestJson(body);
        String type = request.path("schemaType").asText("AVRO");
        if (!type.equalsIgnoreCase("AVRO")) {
            throw new SchemaRegistryException(422, SchemaRegistryException.INVALID_SCHEMA,
                    "Invalid schema type " + type + ": this registry holds Avro schemas only");
        }
        if (request.path("references").size() > 0) {
            throw new SchemaRegistryException(422, SchemaRegistryException.INVALID_SCHEMA,
                    "Schema references are not supported by this registry");
        }
        String text = request.path("schema").asText("");
        if (text.isBlank()) {
            throw new SchemaRegistryException(422, SchemaRegistryException.INVALID_SCHEMA, "Empty schema");
        }
        try {
            return new Schema.Parser().parse(text);
        } catch (SchemaParseException e) {
            throw new SchemaRegistryException(422, SchemaRegistryException.INVALID_SCHEMA, "Invalid schema: " + e.getMessage());
        }
    }

    private static Compatibility levelFrom(String body) {
        String level = requestJson(body).path("compatibility").asText("");
        try {
            return Compatibility.valueOf(level.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new SchemaRegistryException(422, SchemaRegistryException.INVALID_COMPATIBILITY_LEVEL,
                    "Invalid compatibility level. Valid values are none, backward, forward, full, backward_transitive,"
                            + " forward_transitive, and full_transitive");
        }
    }

    private static JsonNode requestJson(String body) {
        try {
            JsonNode json = RegistryProtocol.JSON.readTree(body == null ? "" : body);
            if (json == null || !json.isObject()) {
                throw new SchemaRegistryException(400, 400, "Request body must be a JSON object");
            }
            return json;
        } catch (JsonProcessingException e) {
            throw new SchemaRegistryException(400, 400, "Request body is not JSON: " + e.getOriginalMessage());
        }
    }

    private static Map<String, Object> json(RegisteredSchema schema) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("subject", schema.subject());
        body.put("version", schema.version());
        body.put("id", schema.id());
        body.put("schema", schema.schema().toString());
        return body;
    }

    private static List<String> segments(String rawPath) {
        String trimmed = rawPath == null ? "" : rawPath.replaceAll("^/+|/+$", "");
        if (trimmed.isEmpty()) {
            return List.of();
        }
        return Arrays.stream(trimmed.split("/", -1)).map(RegistryProtocol::decodeSegment).toList();
    }

    private static RegistryResponse only(String allowed, String method, Supplier<RegistryResponse> answer) {
        return allowed.equals(method) ? answer.get() : methodNotAllowed();
    }

    private static RegistryResponse notFound() {
        return RegistryResponse.error(404, 404, "HTTP 404 Not Found");
    }

    private static RegistryResponse methodNotAllowed() {
        return RegistryResponse.error(405, 405, "HTTP 405 Method Not Allowed");
    }
}
