package io.hcwatch.avro;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaPairCompatibility;
import org.apache.avro.SchemaFormatter;

/**
 * Released versions of each record schema, kept as {@code <RecordName>/v<N>.avsc}. Each version
 * is self-contained, with the named types it uses inlined as a registry holds them, so a change to a
 * shared type such as CheckConfig is a new version of every record that uses it.
 */
final class SchemaHistory {

    /** Types other .avsc files refer to by name; the same list as the avro-maven-plugin's imports in the pom. */
    static final List<String> SHARED_TYPES = List.of("CheckConfig", "Thresholds", "AlertScope");

    private static final Pattern VERSION_FILE = Pattern.compile("v([1-9][0-9]*)\\.avsc");

    private SchemaHistory() {
    }

    /** Each .avsc in {@code avroDir} by file name, parsed with the shared types known. */
    static Map<String, Schema> current(Path avroDir) {
        Map<String, Schema> schemas = new TreeMap<>();
        for (Path file : list(avroDir)) {
            String name = file.getFileName().toString();
            if (!name.endsWith(".avsc")) {
                continue;
            }
            String record = name.substring(0, name.length() - ".avsc".length());
            Schema.Parser parser = new Schema.Parser();
            for (String shared : SHARED_TYPES) {
                if (!shared.equals(record)) {
                    parse(parser, avroDir.resolve(shared + ".avsc"));
                }
            }
            schemas.put(record, parse(parser, file));
        }
        return schemas;
    }

    /** File names in one record's history directory, by version number; names that are not vN.avsc map to 0. */
    static Map<Integer, Path> versionFiles(Path recordDir) {
        Map<Integer, Path> files = new TreeMap<>();
        int stray = 0;
        for (Path file : list(recordDir)) {
            Matcher matcher = VERSION_FILE.matcher(file.getFileName().toString());
            files.put(matcher.matches() ? Integer.parseInt(matcher.group(1)) : --stray, file);
        }
        return files;
    }

    /** The versions of one record, oldest first; each parsed on its own. */
    static List<Schema> versions(Path recordDir) {
        List<Schema> versions = new ArrayList<>();
        versionFiles(recordDir).forEach((number, file) -> {
            if (number > 0) {
                versions.add(parse(new Schema.Parser(), file));
            }
        });
        return versions;
    }

    /**
     * Why each version cannot read data written with the version before it (BACKWARD: consumers
     * upgrade first and must read what old producers still write); empty when every step is safe.
     */
    static List<String> backwardBreaks(List<Schema> versions) {
        List<String> breaks = new ArrayList<>();
        for (int i = 1; i < versions.size(); i++) {
            SchemaPairCompatibility pair = SchemaCompatibility.checkReaderWriterCompatibility(versions.get(i), versions.get(i - 1));
            if (pair.getType() != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
                for (SchemaCompatibility.Incompatibility problem : pair.getResult().getIncompatibilities()) {
                    breaks.add("v" + (i + 1) + " cannot read v" + i + ": " + problem.getType() + " at "
                            + problem.getLocation() + " (" + problem.getMessage() + ")");
                }
            }
        }
        return breaks;
    }

    /** The text to record as the next version: the schema as it is registered, pretty-printed. */
    static String versionText(Schema schema) {
        return SchemaFormatter.format("json/pretty", schema) + "\n";
    }

    private static Schema parse(Schema.Parser parser, Path file) {
        try {
            return parser.parse(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    private static List<Path> list(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }
}
