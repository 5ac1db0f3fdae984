package io.hcwatch.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

/**
 * A {@link SchemaRegistryClient} speaking the Confluent Schema Registry REST API, so it works
 * with Confluent, Karapace, Apicurio (ccompat) and Redpanda alike.
 *
 * <p>An id's schema and a subject's id for a schema never change once registered, so they are
 * cached for the life of the client; a subject's latest version does change, so it is reused
 * only for {@link RestClientSettings#latestCacheTtl()}.
 */
public final class RestSchemaRegistryClient implements SchemaRegistryClient {

    private final RegistryHttpTransport transport;
    private final Clock clock;
    private final RestClientSettings settings;
    private final Map<Integer, Schema> schemaById = new ConcurrentHashMap<>();
    private final Map<SubjectSchema, Integer> idBySubjectSchema = new ConcurrentHashMap<>();
    private final Map<SubjectSchema, RegisteredSchema> lookups = new ConcurrentHashMap<>();
    private final Map<String, Expiring> latestBySubject = new ConcurrentHashMap<>();

    public RestSchemaRegistryClient(RestClientSettings settings) {
        this(settings, Clock.systemUTC());
    }

    RestSchemaRegistryClient(RestClientSettings settings, Clock clock) {
        this.settings = settings;
        this.transport = new RegistryHttpTransport(settings);
        this.clock = clock;
    }

    @Override
    public int register(String subject, Schema schema) {
        SubjectSchema key = new SubjectSchema(subject, schema.toString());
        Integer cached = idBySubjectSchema.get(key);
        if (cached != null) {
            return cached;
        }
        JsonNode answer = transport.post("/subjects/" + RegistryProtocol.encodeSegment(subject) + "/versions", schemaBody(key));
        int id = requiredInt(answer, "id", "register under " + subject);
        idBySubjectSchema.put(key, id);
        schemaById.putIfAbsent(id, schema);
        return id;
    }

    @Override
    public Schema getById(int id) {
        Schema cached = schemaById.get(id);
        if (cached != null) {
            return cached;
        }
        JsonNode answer = transport.get("/schemas/ids/" + id);
        Schema schema = schemaOf(answer, "schema " + id);
        schemaById.putIfAbsent(id, schema);
        return schema;
    }

    @Override
    public RegisteredSchema getLatest(String subject) {
        Instant now = clock.instant();
        Expiring cached = latestBySubject.get(subject);
        if (cached != null && now.isBefore(cached.expiresAt())) {
            return cached.schema();
        }
        JsonNode answer = transport.get("/subjects/" + RegistryProtocol.encodeSegment(subject) + "/versions/latest");
        RegisteredSchema latest = registeredSchema(subject, answer, "latest version of " + subject);
        latestBySubject.put(subject, new Expiring(latest, now.plus(settings.latestCacheTtl())));
        schemaById.putIfAbsent(latest.id(), latest.schema());
        return latest;
    }

    @Override
    public RegisteredSchema lookup(String subject, Schema schema) {
        SubjectSchema key = new SubjectSchema(subject, schema.toString());
        RegisteredSchema cached = lookups.get(key);
        if (cached != null) {
            return cached;
        }
        JsonNode answer = transport.post("/subjects/" + RegistryProtocol.encodeSegment(subject), schemaBody(key));
        RegisteredSchema found = registeredSchema(subject, answer, "lookup under " + subject);
        lookups.put(key, found);
        idBySubjectSchema.put(key, found.id());
        schemaById.putIfAbsent(found.id(), found.schema());
        return found;
    }

    @Override
    public boolean testCompatibility(String subject, Schema schema) {
        try {
            JsonNode answer = transport.post("/compatibility/subjects/" + RegistryProtocol.encodeSegment(subject)
                    + "/versions/latest", schemaBody(new SubjectSchema(subject, schema.toString())));
            JsonNode verdict = answer.get("is_compatible");
            if (verdict == null || !verdict.isBoolean()) {
                throw new SchemaRegistryException("compatibility check of " + subject
                        + " answered without a boolean is_compatible: " + answer, null);
            }
            return verdict.booleanValue();
        } catch (SchemaRegistryException e) {
            // Older registries answer 404 where newer ones say compatible: nothing registered yet, nothing to break.
            if (e.errorCode() == SchemaRegistryException.SUBJECT_NOT_FOUND
                    || e.errorCode() == SchemaRegistryException.VERSION_NOT_FOUND) {
                return true;
            }
            throw e;
        }
    }

    private static ObjectNode schemaBody(SubjectSchema key) {
        ObjectNode body = RegistryProtocol.JSON.createObjectNode();
        body.put("schema", key.schemaText());
        return body;
    }

    private static RegisteredSchema registeredSchema(String subject, JsonNode answer, String what) {
        return new RegisteredSchema(answer.path("subject").asText(subject), requiredInt(answer, "id", what),
                answer.path("version").asInt(0), schemaOf(answer, what));
    }

    private static Schema schemaOf(JsonNode answer, String what) {
        String type = answer.path("schemaType").asText("AVRO");
        if (!type.equalsIgnoreCase("AVRO")) {
            throw new SchemaRegistryException(what + " is a " + type + " schema; only Avro is supported", null);
        }
        if (answer.path("references").size() > 0) {
            throw new SchemaRegistryException(what + " uses schema references, which this client does not resolve", null);
        }
        JsonNode text = answer.get("schema");
        if (text == null || !text.isTextual()) {
            throw new SchemaRegistryException(what + ": the registry's answer has no schema", null);
        }
        try {
            return new Schema.Parser().parse(text.asText());
        } catch (SchemaParseException e) {
            throw new SchemaRegistryException(what + ": the registry returned a schema Avro cannot parse: "
                    + e.getMessage(), e);
        }
    }

    private static int requiredInt(JsonNode answer, String field, String what) {
        JsonNode value = answer.get(field);
        if (value == null || !value.canConvertToInt()) {
            throw new SchemaRegistryException(what + ": the registry's answer has no integer " + field + ": "
                    + answer, null);
        }
        return value.intValue();
    }

    private record SubjectSchema(String subject, String schemaText) {
    }

    private record Expiring(RegisteredSchema schema, Instant expiresAt) {
    }
}
