package io.hcwatch.registry;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;

/**
 * A schema registry held in memory, with the same ids, versions and BACKWARD compatibility
 * checks as Confluent's. {@code mock://scope} URLs share one instance per scope within a JVM,
 * as Confluent's own serializers do, so the demo and tests need no registry process.
 */
public final class InMemorySchemaRegistry implements SchemaRegistryClient {

    private static final Map<String, InMemorySchemaRegistry> SCOPES = new ConcurrentHashMap<>();

    private final Map<Integer, Schema> byId = new HashMap<>();
    private final Map<String, Integer> idByCanonical = new HashMap<>();
    private final Map<String, List<Integer>> versionsBySubject = new HashMap<>();
    private final Map<String, Compatibility> compatibilityBySubject = new HashMap<>();
    private Compatibility defaultCompatibility = Compatibility.BACKWARD;
    private int nextId = 1;

    /** Compatibility levels the registry enforces on new versions of a subject. */
    public enum Compatibility { NONE, BACKWARD, FORWARD, FULL, BACKWARD_TRANSITIVE, FORWARD_TRANSITIVE, FULL_TRANSITIVE }

    /** The registry shared by every {@code mock://scope} client of this JVM. */
    public static InMemorySchemaRegistry scope(String scope) {
        return SCOPES.computeIfAbsent(scope, s -> new InMemorySchemaRegistry());
    }

    /** Forgets a scope, so the next test starts from an empty registry. */
    public static void dropScope(String scope) {
        SCOPES.remove(scope);
    }

    @Override
    public synchronized int register(String subject, Schema schema) {
        String canonical = canonical(schema);
        List<Integer> versions = versionsBySubject.computeIfAbsent(subject, s -> new ArrayList<>());
        Integer existing = idByCanonical.get(canonical);
        if (existing != null && versions.contains(existing)) {
            return existing;
        }
        if (!isCompatible(subject, schema)) {
            throw new SchemaRegistryException(409, SchemaRegistryException.INCOMPATIBLE_SCHEMA,
                    "Schema being registered is incompatible with an earlier schema for subject \"" + subject + "\"");
        }
        int id = existing != null ? existing : nextId++;
        byId.put(id, schema);
        idByCanonical.put(canonical, id);
        versions.add(id);
        return id;
    }

    @Override
    public synchronized Schema getById(int id) {
        Schema schema = byId.get(id);
        if (schema == null) {
            throw new SchemaRegistryException(404, SchemaRegistryException.SCHEMA_NOT_FOUND, "Schema " + id + " not found");
        }
        return schema;
    }

    @Override
    public synchronized RegisteredSchema getLatest(String subject) {
        List<Integer> versions = versions(subject);
        int id = versions.get(versions.size() - 1);
        return new RegisteredSchema(subject, id, versions.size(), byId.get(id));
    }

    /** Version {@code version} (1-based) of {@code subject}. */
    public synchronized RegisteredSchema getVersion(String subject, int version) {
        List<Integer> versions = versions(subject);
        if (version < 1 || version > versions.size()) {
            throw new SchemaRegistryException(404, SchemaRegistryException.VERSION_NOT_FOUND,
                    "Version " + version + " not found.");
        }
        int id = versions.get(version - 1);
        return new RegisteredSchema(subject, id, version, byId.get(id));
    }

    @Override
    public synchronized RegisteredSchema lookup(String subject, Schema schema) {
        List<Integer> versions = versions(subject);
        Integer id = idByCanonical.get(canonical(schema));
        int index = id == null ? -1 : versions.indexOf(id);
        if (index < 0) {
            throw new SchemaRegistryException(404, SchemaRegistryException.SCHEMA_NOT_FOUND,
                    "Schema not found");
        }
        return new RegisteredSchema(subject, id, index + 1, byId.get(id));
    }

    @Override
    public synchronized boolean testCompatibility(String subject, Schema schema) {
        return isCompatible(subject, schema);
    }

    /**
     * Whether {@code schema} meets the subject's level against version {@code version} alone, as
     * Confluent's compatibility check against a given version does (transitive levels included).
     */
    public synchronized boolean testCompatibility(String subject, Schema schema, int version) {
        return satisfies(level(subject), schema, getVersion(subject, version).schema());
    }

    public synchronized List<String> subjects() {
        return new ArrayList<>(new TreeSet<>(versionsBySubject.keySet()));
    }

    /** Version numbers of {@code subject}, 1 to n. */
    public synchronized List<Integer> versionNumbers(String subject) {
        int n = versions(subject).size();
        List<Integer> numbers = new ArrayList<>(n);
        for (int v = 1; v <= n; v++) {
            numbers.add(v);
        }
        return numbers;
    }

    /** Deletes a subject and returns the versions it had. */
    public synchronized List<Integer> deleteSubject(String subject) {
        List<Integer> numbers = versionNumbers(subject);
        versionsBySubject.remove(subject);
        compatibilityBySubject.remove(subject);
        return numbers;
    }

    public synchronized Compatibility defaultCompatibility() {
        return defaultCompatibility;
    }

    public synchronized void setDefaultCompatibility(Compatibility compatibility) {
        this.defaultCompatibility = compatibility;
    }

    /** The subject's own level, if one was set. */
    public synchronized Optional<Compatibility> subjectCompatibility(String subject) {
        return Optional.ofNullable(compatibilityBySubject.get(subject));
    }

    public synchronized void setSubjectCompatibility(String subject, Compatibility compatibility) {
        compatibilityBySubject.put(subject, compatibility);
    }

    private List<Integer> versions(String subject) {
        List<Integer> versions = versionsBySubject.get(subject);
        if (versions == null || versions.isEmpty()) {
            throw new SchemaRegistryException(404, SchemaRegistryException.SUBJECT_NOT_FOUND,
                    "Subject '" + subject + "' not found.");
        }
        return versions;
    }

    private boolean isCompatible(String subject, Schema candidate) {
        List<Integer> versions = versionsBySubject.getOrDefault(subject, List.of());
        if (versions.isEmpty()) {
            return true;
        }
        Compatibility level = level(subject);
        List<Integer> against = switch (level) {
            case NONE -> List.of();
            case BACKWARD, FORWARD, FULL -> List.of(versions.get(versions.size() - 1));
            default -> versions;
        };
        for (int id : against) {
            if (!satisfies(level, candidate, byId.get(id))) {
                return false;
            }
        }
        return true;
    }

    private Compatibility level(String subject) {
        return compatibilityBySubject.getOrDefault(subject, defaultCompatibility);
    }

    private static boolean satisfies(Compatibility level, Schema candidate, Schema existing) {
        return switch (level) {
            case BACKWARD, BACKWARD_TRANSITIVE -> readable(candidate, existing);
            case FORWARD, FORWARD_TRANSITIVE -> readable(existing, candidate);
            case FULL, FULL_TRANSITIVE -> readable(candidate, existing) && readable(existing, candidate);
            case NONE -> true;
        };
    }

    private static boolean readable(Schema reader, Schema writer) {
        return SchemaCompatibility.checkReaderWriterCompatibility(reader, writer).getType()
                == SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE;
    }

    private static String canonical(Schema schema) {
        return schema.toString();
    }
}
