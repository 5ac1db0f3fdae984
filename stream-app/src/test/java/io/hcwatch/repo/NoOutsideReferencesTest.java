package io.hcwatch.repo;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.testsupport.RepoFiles;
import java.io.IOException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The repository stands alone: what a newcomer reads (README, CONTRIBUTING, docs, runbooks, the
 * modules' READMEs and PARSERS.md, deploy files) and the production code point into the repository,
 * never at the steering checkout beside it ({@code ../shared}) or its specification. The contract is
 * docs/contract.md. Only the peer-fixture test helper and .ci/run may name {@code ../shared}: they
 * are not in these paths.
 */
class NoOutsideReferencesTest {

    private static final Pattern OUTSIDE = Pattern.compile("\\.\\./shared|\\bSPEC\\b|SPEC\\.md|SPEC §");

    @Test
    void docsAndMainCodeNameNothingOutsideTheRepository() throws IOException {
        Path root = RepoFiles.root();
        List<Path> scanned = scannedFiles(root);
        assertThat(scanned).as("files scanned").contains(root.resolve("README.md"), root.resolve("docs/contract.md"),
                root.resolve("stream-app/PARSERS.md"), root.resolve("schemas/src/main/avro/Alert.avsc"));
        List<String> hits = new ArrayList<>();
        for (Path file : scanned) {
            List<String> lines = readLines(file);
            for (int i = 0; i < lines.size(); i++) {
                if (OUTSIDE.matcher(lines.get(i)).find()) {
                    hits.add(root.relativize(file) + ":" + (i + 1) + ": " + lines.get(i).strip());
                }
            }
        }
        assertThat(hits).as("references outside the repository (write them into docs/contract.md and link there)")
                .isEmpty();
    }

    @Test
    void thePatternCatchesEveryFormSeenBefore() {
        assertThat(List.of("[SPEC.md](../shared/SPEC.md)", "SPEC §2 JSON forms", "(SPEC section 3)",
                "at `../shared/fixtures/peer-logs`"))
                .allMatch(s -> OUTSIDE.matcher(s).find());
        assertThat(List.of("docs/contract.md#alerts", "a specific case", "JSON_SPEC_V2", "shared/fixtures"))
                .noneMatch(s -> OUTSIDE.matcher(s).find());
    }

    private static List<Path> scannedFiles(Path root) throws IOException {
        List<Path> out = new ArrayList<>();
        for (String top : List.of("README.md", "CONTRIBUTING.md")) {
            out.add(root.resolve(top));
        }
        for (String dir : List.of("docs", "runbooks", "deploy")) {
            out.addAll(textFiles(root.resolve(dir)));
        }
        try (Stream<Path> modules = Files.list(root)) {
            for (Path module : modules.filter(m -> Files.isRegularFile(m.resolve("pom.xml"))).sorted().toList()) {
                try (Stream<Path> docs = Files.list(module)) {
                    docs.filter(f -> f.getFileName().toString().endsWith(".md")).sorted().forEach(out::add);
                }
                out.addAll(textFiles(module.resolve("src/main")));
            }
        }
        return out;
    }

    private static List<Path> textFiles(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(Files::isRegularFile).filter(NoOutsideReferencesTest::isText).sorted().toList();
        }
    }

    private static boolean isText(Path file) {
        String name = file.getFileName().toString();
        return Stream.of(".md", ".java", ".avsc", ".properties", ".json", ".yml", ".yaml", ".txt", ".xml", ".sh")
                .anyMatch(name::endsWith);
    }

    private static List<String> readLines(Path file) throws IOException {
        // a stray non-UTF-8 byte must not hide the rest of a file from the scan
        return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                .decode(java.nio.ByteBuffer.wrap(Files.readAllBytes(file))).toString().lines().toList();
    }
}
