package io.hcwatch.parse;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The third-party peer fixtures kept beside the repository ({@code <repo root>/../shared/fixtures/
 * peer-logs}, or the folder named by the system property {@code hcwatch.fixtures}). They are
 * third-party material and stay outside the repository: tests that need them are skipped with a
 * message where they are absent, and fail instead when {@code HCWATCH_REQUIRE_FIXTURES=1} (CI, which
 * has them beside the clone). The project's own samples cover every parser path without them.
 */
public final class PeerFixtures {

    static final String PROPERTY = "hcwatch.fixtures";
    static final String REQUIRE_ENV = "HCWATCH_REQUIRE_FIXTURES";
    private static final Pattern HEADER = Pattern.compile("^### ([LH])(\\d+) (?:\\((\\d+) fields\\)|— (\\S+))");
    private static final Pattern PAIR = Pattern.compile("([A-Za-z_][\\w/]*(?: \\([\\w/]+\\))?)=`([^`]*)`");

    private PeerFixtures() {
    }

    public static Path folder() {
        String override = System.getProperty(PROPERTY);
        if (override != null && !override.isBlank()) {
            return Paths.get(override);
        }
        Path dir = Paths.get("").toAbsolutePath();
        while (dir != null && !(Files.isDirectory(dir.resolve("stream-app")) && Files.isDirectory(dir.resolve("schemas")))) {
            dir = dir.getParent();
        }
        Path root = dir == null ? Paths.get("").toAbsolutePath() : dir;
        return root.resolveSibling("shared").resolve("fixtures").resolve("peer-logs").normalize();
    }

    /**
     * Skips the calling test with the path it looked at when the fixtures are not there, or fails it
     * when {@code HCWATCH_REQUIRE_FIXTURES=1}.
     */
    public static Path requireFolder() {
        return requireFolder(folder(), System.getenv(REQUIRE_ENV));
    }

    static Path requireFolder(Path folder, String requireSetting) {
        if ("1".equals(requireSetting) && !Files.isDirectory(folder)) {
            throw new AssertionError(REQUIRE_ENV + "=1 but the peer fixtures are not at " + folder);
        }
        assumeTrue(Files.isDirectory(folder), "peer fixtures not found at " + folder + ": skipped (set -D" + PROPERTY
                + "=<path> to point at them; " + REQUIRE_ENV + "=1 makes their absence a failure)");
        return folder;
    }

    public static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One "### L12 (25 fields)" or "### H7 — http" block of an expected.md. */
    record Expectation(int line, String kind, Integer fields, Map<String, String> values,
                       Map<String, String> prefix, List<String> rawLines) {
    }

    static List<Expectation> expectations(Path expectedMd) {
        List<Expectation> out = new ArrayList<>();
        Expectation current = null;
        for (String raw : lines(expectedMd)) {
            if (raw.startsWith("## ")) {
                current = null; // the negative/unattributed sections are prose, not key=value blocks
                continue;
            }
            Matcher h = HEADER.matcher(raw);
            if (h.find()) {
                current = new Expectation(Integer.parseInt(h.group(2)), h.group(4),
                        h.group(3) == null ? null : Integer.valueOf(h.group(3)),
                        new LinkedHashMap<>(), new LinkedHashMap<>(), new ArrayList<>());
                out.add(current);
                continue;
            }
            if (current == null || !raw.startsWith("- ") || raw.startsWith("- source:") || raw.startsWith("- note:")
                    || raw.startsWith("- EDGE:")) {
                continue;
            }
            current.rawLines().add(raw);
            Map<String, String> target = raw.startsWith("- prefix:") ? current.prefix() : current.values();
            Matcher m = PAIR.matcher(raw);
            while (m.find()) {
                target.put(m.group(1), m.group(2));
            }
        }
        return out;
    }
}
