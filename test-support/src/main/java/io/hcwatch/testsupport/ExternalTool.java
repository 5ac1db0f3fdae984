package io.hcwatch.testsupport;

import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A command-line tool a test needs (promtool, prometheus, docker-compose, haproxy, rsyslogd). Missing, the test is
 * skipped with a message saying what to install, unless {@code requireVariable} is set to 1 in
 * the environment (CI sets it), where a missing tool fails the test instead.
 */
public record ExternalTool(Path binary) {

    public static ExternalTool require(String name, String requireVariable, String install) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
            if (Files.isExecutable(candidate)) {
                return new ExternalTool(candidate);
            }
        }
        String message = "'" + name + "' is not on PATH (" + install + ")";
        if ("1".equals(System.getenv(requireVariable))) {
            fail(message + " but " + requireVariable + "=1 requires it");
        }
        Assumptions.abort("SKIPPED: " + message + "; set " + requireVariable + "=1 to make this a failure");
        throw new AssertionError("unreachable");
    }

    public static ExternalTool promtool() {
        return require("promtool", "HCWATCH_REQUIRE_PROMETHEUS", "Debian: apt-get install prometheus");
    }

    public static ExternalTool prometheus() {
        return require("prometheus", "HCWATCH_REQUIRE_PROMETHEUS", "Debian: apt-get install prometheus");
    }

    public static ExternalTool dockerCompose() {
        return require("docker-compose", "HCWATCH_REQUIRE_COMPOSE", "Debian: apt-get install docker-compose");
    }

    public static ExternalTool haproxy() {
        return require("haproxy", "HCWATCH_REQUIRE_HAPROXY", "Debian: apt-get install haproxy");
    }

    /** rsyslogd with omkafka: Debian ships the module in its own package. */
    public static ExternalTool rsyslogd() {
        return require("rsyslogd", "HCWATCH_REQUIRE_RSYSLOG", "Debian: apt-get install rsyslog rsyslog-kafka");
    }

    /** What a finished run printed and its exit code. */
    public record Result(int exitCode, String output) {
    }

    /** Runs the tool to completion within {@code timeout}, stdout and stderr merged, {@code stdin} fed in. */
    public Result run(Path workDir, String stdin, Duration timeout, String... args) {
        List<String> command = new ArrayList<>();
        command.add(binary.toString());
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true).start();
            try (var in = p.getOutputStream()) {
                if (stdin != null) {
                    in.write(stdin.getBytes(StandardCharsets.UTF_8));
                }
            }
            byte[][] out = new byte[1][];
            Thread reader = new Thread(() -> {
                try (InputStream s = p.getInputStream()) {
                    out[0] = s.readAllBytes();
                } catch (IOException e) {
                    out[0] = ("reading output failed: " + e).getBytes(StandardCharsets.UTF_8);
                }
            });
            reader.start();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                fail(command + " did not finish in " + timeout);
            }
            reader.join(5_000);
            return new Result(p.exitValue(), out[0] == null ? "" : new String(out[0], StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + command, e);
        }
    }

    /** Starts the tool and leaves it running; its output goes to {@code log}. */
    public Process start(Path workDir, Path log, String... args) {
        List<String> command = new ArrayList<>();
        command.add(binary.toString());
        command.addAll(List.of(args));
        try {
            return new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + command, e);
        }
    }
}
