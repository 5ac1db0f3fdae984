package io.hcwatch.collect.haproxy;

import io.hcwatch.collect.CollectorServices;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code collect haproxy --config FILE}: polls until the process is stopped. */
@Command(name = "haproxy", mixinStandardHelpOptions = true,
        description = "Polls HAProxy's runtime API (or stats page) and publishes lb-config, health-check-results"
                + " and haproxy-stats. Keys: collectors/README.md.")
public final class HaproxyCommand implements Callable<Integer> {

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "properties file")
    Path config;

    @Override
    public Integer call() throws InterruptedException {
        HaproxyCollector collector = HaproxyCollector.fromFile(config);
        return CollectorServices.runUntilStopped(collector::start, collector);
    }
}
