package io.hcwatch.collect.alblogs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompletionLogTest {

    private static final long HOUR = 3_600_000;

    @TempDir
    Path dir;
    private final AtomicLong now = new AtomicLong(1_800_000_000_000L);

    @Test
    void completedObjectsAreRememberedAcrossARestartUntilTheRetentionEnds() throws Exception {
        Path file = dir.resolve("state/completed");
        try (CompletionLog log = new CompletionLog(file, 24 * HOUR, now::get)) {
            log.add("b/k1@e:1");
            now.addAndGet(2 * HOUR);
            log.add("b/k2@e:2");
            assertThat(log.contains("b/k1@e:1")).isTrue();
            assertThat(log.contains("b/k1@e:other")).isFalse();
        }
        now.addAndGet(23 * HOUR);
        try (CompletionLog reopened = new CompletionLog(file, 24 * HOUR, now::get)) {
            assertThat(reopened.contains("b/k1@e:1")).as("25 h old").isFalse();
            assertThat(reopened.contains("b/k2@e:2")).as("23 h old").isTrue();
            assertThat(reopened.size()).isEqualTo(1);
        }
        assertThat(Files.readAllLines(file)).hasSize(1);
    }

    @Test
    void aLineCutByACrashIsSkipped() throws Exception {
        Path file = dir.resolve("completed");
        Files.writeString(file, now.get() + "\tb/k1@e:1\n" + now.get() + "\tb/k2@e:2\n17000");
        try (CompletionLog log = new CompletionLog(file, HOUR, now::get)) {
            assertThat(log.size()).isEqualTo(2);
            log.add("b/k3@e:3");
        }
        assertThat(Files.readAllLines(file)).hasSize(3).allMatch(l -> l.contains("\tb/k"));
    }
}
