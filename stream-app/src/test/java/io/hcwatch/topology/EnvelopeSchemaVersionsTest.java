package io.hcwatch.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.junit.jupiter.api.Test;

/**
 * Every schema an envelope carries, public ones included ({@code HealthCheckResult}, {@code LbConfig},
 * {@code BackendEvent}, {@code HaproxyStats} from {@code schemas/}), is pinned per envelope kind and
 * version by the fingerprint of its parsing canonical form (what decides the bytes on the wire; docs
 * and defaults do not) in {@code golden/envelope-schemas.txt}. A change to such a schema without a
 * new {@link Envelope.Kind#version()} fails here: records written under the old schema would be read
 * with the new one, and a release that reads only the old one would misread the new bytes instead of
 * refusing them as a newer version. Each earlier version stays pinned too: its schema, kept in
 * {@code internal-schema-history}, must never change either. This file is only ever added to.
 *
 * <p>The parsing canonical form leaves logical types out: a {@code long} that becomes
 * {@code timestamp-micros} instead of {@code timestamp-millis} keeps its fingerprint and its bytes,
 * yet a release that reads the old one misreads every value by a factor of 1000. So the logical
 * types of each kind and version are pinned as well, by field path, in
 * {@code golden/envelope-logical-types.txt} (also only ever added to). Defaults and docs are not
 * pinned: they change neither the bytes nor what a release makes of them.
 */
class EnvelopeSchemaVersionsTest {

    private static final Path GOLDEN = Path.of("src/test/resources/golden/envelope-schemas.txt");
    private static final Path LOGICAL_TYPES = Path.of("src/test/resources/golden/envelope-logical-types.txt");

    @Test
    void everyEnvelopeKindsSchemaIsTheOnePinnedForItsVersion() throws IOException {
        Map<String, String> pinned = read(GOLDEN);
        Map<String, String> actual = new TreeMap<>();
        for (Envelope.Kind kind : Envelope.Kind.values()) {
            for (int v = 1; v <= kind.version(); v++) {
                Schema schema = v == kind.version() ? kind.schema : history(kind, v);
                actual.put(kind + " v" + v, Long.toHexString(SchemaNormalization.parsingFingerprint64(schema)));
            }
        }
        StringBuilder lines = new StringBuilder();
        actual.forEach((k, f) -> lines.append(k).append(' ').append(f).append('\n'));
        for (Map.Entry<String, String> e : actual.entrySet()) {
            String kindAndVersion = e.getKey();
            assertThat(pinned).as("""
                    %s is not pinned in %s. A new kind, or a new version of one (its schema changed, Envelope.Kind.version() \
                    raised, the previous schema kept in internal-schema-history): add its line. This release's lines:
                    %s""", kindAndVersion, GOLDEN, lines).containsKey(kindAndVersion);
            assertThat(e.getValue()).as("""
                    the schema of %s changed (fingerprint %s, pinned %s). Records already written under it would be read \
                    with the new schema, and an older release would misread the new records instead of refusing them: \
                    raise Envelope.Kind.version(), keep the schema of each earlier version as \
                    internal-schema-history/<Record>/v<n>.avsc, and pin the new version's line""",
                    kindAndVersion, e.getValue(), pinned.get(kindAndVersion)).isEqualTo(pinned.get(kindAndVersion));
        }
        assertThat(actual.keySet()).as("pinned versions no kind has (was a version lowered?)").containsAll(pinned.keySet());
    }

    @Test
    void everyEnvelopeKindsLogicalTypesAreThosePinnedForItsVersion() throws IOException {
        Map<String, String> pinned = read(LOGICAL_TYPES);
        Map<String, String> actual = new TreeMap<>();
        for (Envelope.Kind kind : Envelope.Kind.values()) {
            for (int v = 1; v <= kind.version(); v++) {
                actual.put(kind + " v" + v, logicalTypes(v == kind.version() ? kind.schema : history(kind, v)));
            }
        }
        StringBuilder lines = new StringBuilder();
        actual.forEach((k, types) -> lines.append(k).append(' ').append(types).append('\n'));
        for (Map.Entry<String, String> e : actual.entrySet()) {
            assertThat(pinned).as("%s has no logical types pinned in %s. This release's lines:%n%s", e.getKey(), LOGICAL_TYPES, lines)
                    .containsKey(e.getKey());
            assertThat(e.getValue()).as("""
                    the logical types of %s changed (%s, pinned %s): the bytes are the same, but a release that reads the \
                    pinned ones misreads every such value. Raise Envelope.Kind.version(), keep the schema of each earlier \
                    version as internal-schema-history/<Record>/v<n>.avsc, and pin the new version's lines""",
                    e.getKey(), e.getValue(), pinned.get(e.getKey())).isEqualTo(pinned.get(e.getKey()));
        }
        assertThat(actual.keySet()).as("pinned versions no kind has (was a version lowered?)").containsAll(pinned.keySet());
    }

    /**
     * Why the logical types are pinned beside the fingerprint: a timestamp's unit changed (as it
     * could be in {@code LbConfig.ts}, a public schema an envelope embeds) leaves the fingerprint as it was.
     */
    @Test
    void aTimestampsUnitChangedKeepsItsFingerprintButNotItsLogicalTypes() {
        String record = """
                {"type": "record", "name": "Config", "fields": [{"name": "ts", "type": {"type": "long", "logicalType": "%s"}},
                  {"name": "zones", "type": ["null", {"type": "map", "values": {"type": "long", "logicalType": "%s"}}]}]}""";
        Schema millis = new Schema.Parser().parse(record.formatted("timestamp-millis", "timestamp-millis"));
        Schema micros = new Schema.Parser().parse(record.formatted("timestamp-millis", "timestamp-micros"));
        assertThat(SchemaNormalization.parsingFingerprint64(micros)).isEqualTo(SchemaNormalization.parsingFingerprint64(millis));
        assertThat(logicalTypes(millis)).isEqualTo("ts=timestamp-millis zones{}=timestamp-millis");
        assertThat(logicalTypes(micros)).isEqualTo("ts=timestamp-millis zones{}=timestamp-micros");
    }

    /** Each logical type in {@code schema} as {@code path=type}, paths through records (.), arrays ([]) and maps ({}). */
    static String logicalTypes(Schema schema) {
        List<String> out = new ArrayList<>();
        collect(schema, "", out, new HashSet<>());
        return out.isEmpty() ? "-" : String.join(" ", out);
    }

    private static void collect(Schema schema, String path, List<String> out, Set<String> enclosing) {
        String logical = schema.getProp("logicalType");
        if (logical != null) {
            Object precision = schema.getObjectProp("precision");
            Object scale = schema.getObjectProp("scale");
            out.add((path.isEmpty() ? "." : path) + "=" + logical
                    + (precision == null ? "" : "(" + precision + (scale == null ? "" : "," + scale) + ")"));
        }
        switch (schema.getType()) {
            case RECORD -> {
                // a record that contains itself is walked once per path, not forever
                if (enclosing.add(schema.getFullName())) {
                    for (Schema.Field f : schema.getFields()) {
                        collect(f.schema(), path.isEmpty() ? f.name() : path + "." + f.name(), out, enclosing);
                    }
                    enclosing.remove(schema.getFullName());
                }
            }
            case ARRAY -> collect(schema.getElementType(), path + "[]", out, enclosing);
            case MAP -> collect(schema.getValueType(), path + "{}", out, enclosing);
            case UNION -> schema.getTypes().forEach(branch -> collect(branch, path, out, enclosing));
            default -> { }
        }
    }

    /**
     * The rule the test above enforces, shown on a real change: a field added to a public schema an
     * envelope embeds changes the fingerprint its kind's current version is pinned with.
     */
    @Test
    void aFieldAddedToAnEmbeddedPublicSchemaChangesItsPinnedFingerprint() {
        Schema current = Envelope.Kind.HEALTH_CHECK.schema;
        Schema widened = new Schema.Parser().parse(current.toString().replaceFirst("\"fields\"\\s*:\\s*\\[",
                "\"fields\":[{\"name\":\"added_later\",\"type\":[\"null\",\"string\"],\"default\":null},"));
        assertThat(widened.getField("added_later")).isNotNull();
        assertThat(SchemaNormalization.parsingFingerprint64(widened)).isNotEqualTo(SchemaNormalization.parsingFingerprint64(current));
        // a doc string is not part of the wire form: changing it needs no new version
        Schema redocumented = new Schema.Parser().parse(current.toString().replaceFirst("\"doc\"\\s*:\\s*\"[^\"]*\"",
                "\"doc\":\"said differently\""));
        assertThat(SchemaNormalization.parsingFingerprint64(redocumented)).isEqualTo(SchemaNormalization.parsingFingerprint64(current));
    }

    private static Schema history(Envelope.Kind kind, int version) throws IOException {
        String path = "/internal-schema-history/" + kind.schema.getName() + "/v" + version + ".avsc";
        try (InputStream in = EnvelopeSchemaVersionsTest.class.getResourceAsStream(path)) {
            assertThat(in).as(path).isNotNull();
            return new Schema.Parser().parse(in);
        }
    }

    /** {@code KIND vN value} lines; the value is everything after the version. */
    private static Map<String, String> read(Path file) throws IOException {
        Map<String, String> pinned = new TreeMap<>();
        if (!Files.exists(file)) {
            return pinned;
        }
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (!line.isBlank() && !line.startsWith("#")) {
                String[] parts = line.split(" ", 3);
                pinned.put(parts[0] + " " + parts[1], parts[2]);
            }
        }
        return pinned;
    }
}
