package io.hcwatch.cli;

import io.hcwatch.sink.SinkApp;
import io.hcwatch.sink.SinkConfigException;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./hcwatch sink --config FILE}: delivers alerts to PagerDuty and/or stdout. */
@Command(name = "sink", mixinStandardHelpOptions = true,
        description = "Deliver alerts from the alerts topic to PagerDuty Events API v2 and/or stdout (alert-sink/README.md).")
final class SinkCommand implements Callable<Integer> {

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "Properties file (alert-sink/README.md)")
    Path config;

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
