package io.hcwatch.cli;

import io.hcwatch.demo.Demo;
import io.hcwatch.simulate.Scenario;
import io.hcwatch.simulate.ScenarioParams;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./hcwatch demo}: everything in one process, a scenario through Kafka, alerts as they fire. */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Start a Kafka broker (KRaft), a schema registry, the stream app and the alert sink in this process,"
                + " produce a scenario through Kafka in accelerated time and show the alerts as the sink delivers them.",
                "Nothing else to set up. Ctrl-C stops everything."})
final class DemoCommand implements Callable<Integer> {

    @Option(names = "--scenario", paramLabel = "NAME", defaultValue = "timeout-cut",
            description = "Scenario (default timeout-cut; ./hcwatch simulate --list describes them all)")
    String scenario;

    @Option(names = "--speed", paramLabel = "N", description = "Simulated seconds per second (default: the scenario's, 8x to 20x; baseline 900x)")
    Double speed;

    @Option(names = "--seed", paramLabel = "S", description = "Random seed (default: the scenario's)")
    Long seed;

    @Option(names = "--no-color", description = "Plain text even on a terminal (NO_COLOR is honoured too)")
    boolean noColor;

    @Override
    public Integer call() throws Exception {
        Scenario s;
        try {
            s = Scenario.byName(scenario);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        if (speed != null && speed <= 0) {
            throw new UsageException("--speed must be above 0, got " + speed);
        }
        Path log = quietLogs();
        boolean terminal = System.console() != null;
        String noColorEnv = System.getenv("NO_COLOR");
        boolean color = terminal && !noColor && (noColorEnv == null || noColorEnv.isEmpty())
                && !"dumb".equals(System.getenv("TERM"));
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        Demo.Options options = Demo.Options.of(s, out, color, terminal);
        if (seed != null) {
            ScenarioParams p = options.params().withSeed(seed);
            options = options.withParams(p);
        }
        if (speed != null) {
            options = options.withSpeed(speed);
        }
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stop.set(true);
            try {
                // the demo stops what it started, then the process ends as a completed run does
                if (stopped.await(60, TimeUnit.SECONDS)) {
                    Runtime.getRuntime().halt(0);
                }
            } catch (InterruptedException ignored) {
                Thread.currentThread().interrupt();
            }
        }, "hcwatch-demo-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            new Demo(options).run(stop::get);
            out.println("Logs of Kafka and the apps: " + log);
        } finally {
            stopped.countDown();
        }
        return 0;
    }

    /** Kafka and the apps log to a file, so the terminal shows the demo. */
    private static Path quietLogs() throws java.io.IOException {
        Path log = Files.createTempFile("hcwatch-demo-", ".log");
        System.setProperty("org.slf4j.simpleLogger.logFile", log.toString());
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "info");
        System.setProperty("org.slf4j.simpleLogger.showDateTime", "true");
        return log;
    }
}
