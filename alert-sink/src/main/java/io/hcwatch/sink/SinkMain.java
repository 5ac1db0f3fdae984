package io.hcwatch.sink;

import io.hcwatch.cli.Cli;
import io.hcwatch.cli.UsageException;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
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
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            sink.close();
            stopped.countDown();
        }, "hcwatch-sink-shutdown"));
        sink.start();
        stopped.await();
        return 0;
    }
}
