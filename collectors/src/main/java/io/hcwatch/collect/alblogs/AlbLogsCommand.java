package io.hcwatch.collect.alblogs;

import io.hcwatch.collect.CollectorServices;
import io.hcwatch.collect.ConfigReader;
import io.hcwatch.collect.aws.AwsSettings;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code collect alb-logs --config FILE}: ships log objects until the process is stopped. */
@Command(name = "alb-logs", mixinStandardHelpOptions = true,
        description = "Reads S3 event notifications from SQS and publishes every line of ALB access and health-check log"
                + " objects to alb-access-logs / alb-health-check-logs. Keys: collectors/README.md.")
public final class AlbLogsCommand implements Callable<Integer> {

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "properties file")
    Path config;

    @Override
    public Integer call() throws InterruptedException {
        AlbLogsConfig settings = AlbLogsConfig.read(ConfigReader.load(config), AwsSettings::regionFromChain);
        AlbLogsCollector collector = new AlbLogsCollector(settings, AwsSettings.credentials());
        return CollectorServices.runUntilStopped(collector::start, collector);
    }
}
