package io.hcwatch.collect.alblogs;

import static org.awaitility.Awaitility.await;

import io.hcwatch.collect.ConfigReader;
import io.hcwatch.collect.aws.AwsCredentialSecrecyIT;
import io.hcwatch.collect.aws.AwsSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The log collector, with the default credential chain, fetching an object whose 403 quotes the
 * request (its security token header included), then long-polling a queue at a closed port (test
 * code for AwsCredentialSecrecyIT). Returns the texts it produced besides logs: metrics.
 */
public final class HostileS3 {

    private HostileS3() {
    }

    public static List<String> run(String bootstrap, Path dir, String closedEndpoint) {
        List<String> texts = new ArrayList<>();
        try (S3StandIn s3 = new S3StandIn(); SqsStandIn sqs = new SqsStandIn()) {
            String key = AlbLogsCollectorIT.ACCESS_KEY;
            String etag = s3.put(AlbLogsCollectorIT.BUCKET, key, new byte[] {1, 2, 3});
            s3.denied.put(AlbLogsCollectorIT.BUCKET + "/" + key, true);
            s3.echoDenied = true;
            SqsStandIn.Msg m = sqs.send(AlbLogsCollectorIT.event(key, etag));
            try (AlbLogsCollector collector = collector(bootstrap, dir, s3.endpoint().toString(), sqs.endpoint().toString())) {
                collector.start();
                await("the denied object dead-lettered").atMost(Duration.ofSeconds(60)).until(() -> m.deleted);
                texts.add(collector.registry().scrape());
            }
        }
        try (AlbLogsCollector refused = collector(bootstrap, dir, closedEndpoint, closedEndpoint)) {
            refused.start();
            await("connection refused").atMost(Duration.ofSeconds(60)).until(() -> refused.registry()
                    .find("hcwatch.collector.api.errors").tag("reason", "connection_refused").counter() != null);
            texts.add(refused.registry().scrape());
        }
        return texts;
    }

    private static AlbLogsCollector collector(String bootstrap, Path dir, String s3, String sqs) {
        Properties p = AwsCredentialSecrecyIT.base(bootstrap);
        p.setProperty("aws.endpoint.s3", s3);
        p.setProperty("aws.endpoint.sqs", sqs);
        p.setProperty("aws.s3.path-style", "true");
        p.setProperty("alb-logs.queue-url", sqs + "/123456789012/alb-logs");
        p.setProperty("alb-logs.wait.seconds", "1");
        p.setProperty("alb-logs.backoff.initial.ms", "50");
        p.setProperty("alb-logs.backoff.max.ms", "200");
        p.setProperty("alb-logs.state.file", dir.resolve("completed-" + System.nanoTime()).toString());
        return new AlbLogsCollector(AlbLogsConfig.read(new ConfigReader(p), () -> null), AwsSettings.credentials());
    }
}
