package io.hcwatch.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
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
 */
class EnvelopeSchemaVersionsTest {

    private static final Path GOLDEN = Path.of("src/test/resources/golden/envelope-schemas.txt");

    @Test
    void everyEnvelopeKindsSchemaIsTheOnePinnedForItsVersion() throws IOException {
        Map<String, String> pinned = read();
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

    private static Map<String, String> read() throws IOException {
        Map<String, String> pinned = new TreeMap<>();
        if (!Files.exists(GOLDEN)) {
            return pinned;
        }
        for (String line : Files.readAllLines(GOLDEN, StandardCharsets.UTF_8)) {
            if (!line.isBlank() && !line.startsWith("#")) {
                int space = line.lastIndexOf(' ');
                pinned.put(line.substring(0, space), line.substring(space + 1));
            }
        }
        return pinned;
    }
}
