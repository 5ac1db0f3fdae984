package io.hcwatch.cli;

import io.hcwatch.app.ConfigException;
import io.hcwatch.app.StreamApp;
import io.hcwatch.app.StreamAppConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./hcwatch run --config FILE}: the always-on processor against a real cluster. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Run the stream processor against a Kafka cluster and schema registry until stopped (Ctrl-C).")
public final class RunCommand implements Callable<Integer> {

    @Option(names = "--config", required = true, paramLabel = "FILE",
            description = "Properties file: bootstrap.servers, schema.registry.url, topic.*, detect.*, streams.*, metrics.port")
    Path config;

    @Override
    public Integer call() throws Exception {
        if (!Files.isReadable(config)) {
            throw new UsageException("cannot read config file " + config);
        }
        StreamAppConfig cfg;
        try {
            cfg = StreamAppConfig.load(config);
        } catch (ConfigException e) {
            throw new UsageException(e.getMessage());
        }
        CountDownLatch stopped = new CountDownLatch(1);
        try (StreamApp app = new StreamApp(cfg)) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                app.close();
                stopped.countDown();
            }, "hcwatch-shutdown"));
            app.start();
            System.err.println("hcwatch: processing; /metrics, /health and /ready on port " + app.metricsPort());
            stopped.await();
        }
        return 0;
    }
}
