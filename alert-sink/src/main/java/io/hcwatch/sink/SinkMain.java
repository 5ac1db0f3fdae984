package io.hcwatch.sink;

import io.hcwatch.cli.Cli;
import io.hcwatch.cli.UsageException;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sink --config FILE}: delivers alerts to PagerDuty and/or stdout. The entry point of
 * {@code hcwatch-sink.jar} ({@code java -jar hcwatch-sink.jar --config FILE}) and the {@code sink}
 * command of {@code ./hcwatch}.
 */
@Command(name = "sink", mixinStandardHelpOptions = true, versionProvider = Cli.Version.class,
        description = "Deliver alerts from the alerts topic to PagerDuty Events API v2 and/or stdout (alert-sink/README.md).")
public final class SinkMain implements Callable<Integer> {

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "Properties file (alert-sink/README.md)")
    Path config;

    public static void main(String[] args) {
        System.exit(Cli.execute(new SinkMain(), args));
    }

    @Override
    public Integer call() throws Exception {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(config)) {
            p.load(r);
        } catch (IOException e) {
            throw new UsageException("cannot read config file " + config + ": " + e.getMessage());
        }
        SinkApp sink;
        try {
            sink = new SinkApp(p);
        } catch (SinkConfigException e) {
            throw new UsageException(e.getMessage());
        }
        Runtime.getRuntime().addShutdownHook(new Thread(sink::close, "hcwatch-sink-shutdown"));
        sink.start();
        return serve(sink, System.err);
    }

    /**
     * Runs until the sink stops: 0 when it was closed (the shutdown hook), 1 with one line on
     * {@code err} when its consumer ended on an error, so an orchestrator restarts it instead of
     * a process that answers {@code /health} while delivering nothing.
     */
    static int serve(SinkApp sink, PrintStream err) throws InterruptedException {
        Optional<RuntimeException> failure = sink.awaitEnd();
        if (failure.isEmpty()) {
            return 0;
        }
        RuntimeException e = failure.get();
        err.println("sink stopped: the alert consumer failed: " + e.getClass().getSimpleName() + ": "
                + String.valueOf(e.getMessage()).replaceAll("\\s+", " "));
        sink.close();
        return 1;
    }
}
