package io.hcwatch.registry;

import java.nio.file.Path;
import java.util.Objects;

/** A key or trust store on disk; its password never prints. */
public record StoreFile(Path path, String type, char[] password) {

    public StoreFile {
        Objects.requireNonNull(path, "path");
        type = type == null || type.isBlank() ? "JKS" : type;
    }

    @Override
    public String toString() {
        return "StoreFile[" + path + ", " + type + "]";
    }
}
