package io.hcwatch.avro;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.junit.jupiter.api.Test;

/**
 * Every schema change is recorded as a new released version, and each version reads data
 * written with the one before it. To change a schema: edit the .avsc, run this test, and copy
 * the file it writes under target/schema-history-candidates into src/test/resources/schema-history.
 */
class SchemaEvolutionGuardTest {

    private static final Path AVRO = Path.of("src/main/avro");
    private static final Path HISTORY = Path.of("src/test/resources/schema-history");
    private static final Path CANDIDATES = Path.of("target/schema-history-candidates");

    @Test
    void everyCurrentSchemaIsItsNewestRecordedVersion() throws IOException {
        Map<String, Schema> current = SchemaHistory.current(AVRO);
        assertThat(current).as("schemas in " + AVRO).isNotEmpty();

        List<String> unrecorded = new ArrayList<>();
        for (Map.Entry<String, Schema> entry : current.entrySet()) {
            String record = entry.getKey();
            Path dir = HISTORY.resolve(record);
            List<Schema> versions = Files.isDirectory(dir) ? SchemaHistory.versions(dir) : List.of();
            Schema newest = versions.isEmpty() ? null : versions.get(versions.size() - 1);
            // Compared as text, docs included: a registry tells schemas apart by their text.
            if (newest == null || !newest.toString().equals(entry.getValue().toString())) {
                Path candidate = CANDIDATES.resolve(record).resolve("v" + (versions.size() + 1) + ".avsc");
                Files.createDirectories(candidate.getParent());
                Files.writeString(candidate, SchemaHistory.versionText(entry.getValue()));
                unrecorded.add(record + ".avsc differs from its newest recorded version; copy " + candidate
                        + " to " + HISTORY.resolve(record) + "/");
            }
        }
        assertThat(unrecorded).as("schema changes not recorded as a new version").isEmpty();
    }

    @Test
    void everyRecordedVersionReadsDataWrittenWithTheVersionBeforeIt() throws IOException {
        List<String> breaks = new ArrayList<>();
        for (Path dir : recordDirs()) {
            SchemaHistory.backwardBreaks(SchemaHistory.versions(dir))
                    .forEach(problem -> breaks.add(dir.getFileName() + " " + problem));
        }
        assertThat(breaks).as("versions that are not BACKWARD compatible with the one before").isEmpty();
    }

    @Test
    void versionsAreNumberedFromOneWithoutGapsAndEachBelongsToACurrentSchema() throws IOException {
        Set<String> current = SchemaHistory.current(AVRO).keySet();
        List<String> problems = new ArrayList<>();
        for (Path dir : recordDirs()) {
            String record = dir.getFileName().toString();
            if (!current.contains(record)) {
                problems.add(record + " has a history but no " + AVRO.resolve(record + ".avsc"));
            }
            Set<Integer> numbers = new TreeSet<>(SchemaHistory.versionFiles(dir).keySet());
            Set<Integer> expected = new TreeSet<>();
            for (int v = 1; v <= numbers.size(); v++) {
                expected.add(v);
            }
            if (!numbers.equals(expected)) {
                problems.add(record + " holds " + SchemaHistory.versionFiles(dir).values()
                        + "; expected exactly v1.avsc to v" + numbers.size() + ".avsc");
            }
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void theGuardRejectsARequiredFieldWithoutDefaultAndAcceptsAnOptionalOne() {
        Schema v1 = SchemaBuilder.record("Check").fields().requiredString("target").endRecord();
        Schema v2Required = SchemaBuilder.record("Check").fields().requiredString("target").requiredString("zone").endRecord();
        Schema v2Optional = SchemaBuilder.record("Check").fields().requiredString("target").optionalString("zone").endRecord();

        assertThat(SchemaHistory.backwardBreaks(List.of(v1, v2Required)))
                .singleElement().asString().contains("v2 cannot read v1", "READER_FIELD_MISSING_DEFAULT_VALUE", "zone");
        assertThat(SchemaHistory.backwardBreaks(List.of(v1, v2Optional))).isEmpty();
    }

    private static List<Path> recordDirs() throws IOException {
        try (var dirs = Files.list(HISTORY)) {
            return dirs.filter(Files::isDirectory).sorted().toList();
        }
    }
}
