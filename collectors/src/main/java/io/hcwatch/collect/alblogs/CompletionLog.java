package io.hcwatch.collect.alblogs;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The objects whose every line Kafka acknowledged (or that were dead-lettered), kept in a local
 * file for {@code retention}, so an SQS message delivered again (its DeleteMessage lost, its
 * visibility timeout passed, or S3 notifying twice) does not produce the object again. One line
 * per object, {@code <epoch ms>\t<bucket/key@version or etag>}, appended and forced to disk before
 * the message is deleted; entries older than the retention are dropped when the file is read and
 * when it is rewritten (once it holds twice as many lines as live entries). Only the poll thread
 * uses it.
 */
final class CompletionLog implements AutoCloseable {

    private final Path file;
    private final long retentionMs;
    private final LongSupplier clock;
    private final Map<String, Long> completed = new LinkedHashMap<>();
    private FileOutputStream out;
    private int lines;

    CompletionLog(Path file, long retentionMs, LongSupplier clock) {
        this.file = file;
        this.retentionMs = retentionMs;
        this.clock = clock;
        load();
    }

    private void load() {
        long oldest = clock.getAsLong() - retentionMs;
        try {
            if (Files.exists(file)) {
                List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
                for (String line : all) {
                    int tab = line.indexOf('\t');
                    if (tab <= 0) {
                        continue; // a line cut by a crash while it was written
                    }
                    try {
                        long at = Long.parseLong(line.substring(0, tab));
                        if (at >= oldest) {
                            completed.put(line.substring(tab + 1), at);
                        }
                    } catch (NumberFormatException e) {
                        // likewise cut
                    }
                }
            } else if (file.getParent() != null) {
                Files.createDirectories(file.getParent());
            }
            rewrite();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or write the completion log " + file, e);
        }
    }

    boolean contains(String id) {
        Long at = completed.get(id);
        return at != null && at >= clock.getAsLong() - retentionMs;
    }

    /** Records {@code id} as done, on disk, before returning. */
    void add(String id) throws IOException {
        long now = clock.getAsLong();
        completed.remove(id);
        completed.put(id, now);
        out.write((now + "\t" + id + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
        out.getFD().sync();
        lines++;
        if (lines > 2 * completed.size() + 1_000) {
            rewrite();
        }
    }

    int size() {
        return completed.size();
    }

    private void rewrite() throws IOException {
        long oldest = clock.getAsLong() - retentionMs;
        completed.values().removeIf(at -> at < oldest);
        StringBuilder text = new StringBuilder();
        completed.forEach((id, at) -> text.append(at).append('\t').append(id).append('\n'));
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        if (out != null) {
            out.close();
        }
        out = new FileOutputStream(file.toFile(), true);
        lines = completed.size();
    }

    @Override
    public void close() throws IOException {
        if (out != null) {
            out.close();
        }
    }
}
