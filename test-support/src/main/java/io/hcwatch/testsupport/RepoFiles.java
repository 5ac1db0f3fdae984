package io.hcwatch.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;

/** The repository's root, found from the module directory a test runs in. */
public final class RepoFiles {

    private RepoFiles() {
    }

    public static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null) {
            if (Files.isDirectory(dir.resolve("prometheus")) && Files.isRegularFile(dir.resolve("pom.xml"))) {
                return dir;
            }
            dir = dir.getParent();
        }
        throw new IllegalStateException("no repository root (a directory with pom.xml and prometheus/) above "
                + Path.of("").toAbsolutePath());
    }

    public static Path resolve(String relative) {
        return root().resolve(relative);
    }
}
