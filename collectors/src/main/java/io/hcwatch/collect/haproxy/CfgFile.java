package io.hcwatch.collect.haproxy;

import io.hcwatch.collect.haproxy.cfg.HaproxyCfg;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** The haproxy.cfg one HAProxy runs with, read whole (HAProxy configurations are small). */
final class CfgFile {

    /** Far above any real configuration; a larger file is refused rather than read into memory. */
    static final long MAX_BYTES = 16L << 20;

    private final Path path;

    CfgFile(Path path) {
        this.path = path;
    }

    HaproxyCfg.Settings read() throws IOException {
        long size = Files.size(path);
        if (size > MAX_BYTES) {
            throw new IOException(path + " has " + size + " bytes, more than the " + MAX_BYTES + " read");
        }
        // malformed bytes (in a comment, say) become U+FFFD rather than failing the whole file
        return HaproxyCfg.parse(new String(Files.readAllBytes(path), StandardCharsets.UTF_8));
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
