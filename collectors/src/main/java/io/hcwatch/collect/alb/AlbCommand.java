package io.hcwatch.collect.alb;

import io.hcwatch.collect.CollectorServices;
import io.hcwatch.collect.ConfigReader;
import io.hcwatch.collect.aws.AwsSettings;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code collect alb --config FILE}: polls until the process is stopped. */
@Command(name = "alb", mixinStandardHelpOptions = true,
        description = "Polls the ELBv2 API (target health, target groups, attributes) and publishes lb-config and"
                + " health-check-results. Keys: collectors/README.md.")
public final class AlbCommand implements Callable<Integer> {

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "properties file")
    Path config;

    @Override
    public Integer call() throws InterruptedException {
        AlbConfig settings = AlbConfig.read(ConfigReader.load(config), AwsSettings::regionFromChain);
        AlbCollector collector = new AlbCollector(settings, AwsSettings.credentials());
        return CollectorServices.runUntilStopped(collector::start, collector);
    }
}
