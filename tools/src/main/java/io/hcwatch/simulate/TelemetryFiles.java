package io.hcwatch.simulate;

import io.hcwatch.topology.Source;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.zip.GZIPOutputStream;

/**
 * Writes telemetry as the files {@code ./hcwatch replay} reads: one file per source, one record per
 * line, in event-time order. With gzip each file gets {@code .gz} (replay reads both).
 */
public final class TelemetryFiles implements Consumer<Telemetry>, AutoCloseable {

    private final Path dir;
    private final boolean gzip;
    private final Map<Source, OutputStream> files = new EnumMap<>(Source.class);
    private final Map<Source, Long> lines = new EnumMap<>(Source.class);

    public TelemetryFiles(Path dir, boolean gzip) {
        this.dir = dir;
        this.gzip = gzip;
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
    }

    /** The file a source's records go to, e.g. {@code alb-access.log}. */
    public static String fileName(Source source, boolean gzip) {
        String name = switch (source) {
            case ALB -> "alb-access.log";
            case ALB_HEALTH -> "alb-health-check.log";
            case HAPROXY -> "haproxy.log";
            case HEALTH -> "health.jsonl";
            case HAPROXY_STATS -> "haproxy-stats.jsonl";
            case CONFIG -> "config.jsonl";
        };
        return gzip ? name + ".gz" : name;
    }

    public Path path(Source source) {
        return dir.resolve(fileName(source, gzip));
    }

    @Override
    public void accept(Telemetry t) {
        try {
            OutputStream out = files.get(t.source());
            if (out == null) {
                OutputStream raw = Files.newOutputStream(path(t.source()));
                out = new BufferedOutputStream(gzip ? new GZIPOutputStream(raw, 1 << 16) : raw, 1 << 16);
                files.put(t.source(), out);
            }
            out.write(t.value());
            out.write('\n');
            lines.merge(t.source(), 1L, Long::sum);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + path(t.source()), e);
        }
    }

    /** Lines written per source. */
    public Map<Source, Long> lines() {
        return java.util.Collections.unmodifiableMap(new EnumMap<>(lines));
    }

    @Override
    public void close() {
        IOException failure = null;
        for (OutputStream out : files.values()) {
            try {
                out.close();
            } catch (IOException e) {
                failure = e;
            }
        }
        if (failure != null) {
            throw new UncheckedIOException("cannot finish writing to " + dir, failure);
        }
    }
}
