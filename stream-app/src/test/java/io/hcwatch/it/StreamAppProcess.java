package io.hcwatch.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code hcwatch run} in a child JVM, so a test can kill it the hard way (SIGKILL: no shutdown
 * hook, no commit, no clean close), exactly as a crashed node would die.
 */
final class StreamAppProcess implements AutoCloseable {

    private final Process process;
    private final Path log;

    private StreamAppProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    static StreamAppProcess start(Path config) {
        Path jar = Paths.get("target", "hcwatch-stream-app.jar").toAbsolutePath();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: integration tests run after `mvn package`");
        }
        try {
            Path log = Files.createTempFile("hcwatch-run-", ".log");
            List<String> cmd = new ArrayList<>();
            cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
            cmd.add("-Xmx512m");
            cmd.add("-jar");
            cmd.add(jar.toString());
            cmd.add("run");
            cmd.add("--config");
            cmd.add(config.toString());
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            return new StreamAppProcess(p, log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** SIGKILL. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    boolean isAlive() {
        return process.isAlive();
    }

    String log() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
