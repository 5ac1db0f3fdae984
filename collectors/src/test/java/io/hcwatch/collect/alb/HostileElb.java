package io.hcwatch.collect.alb;

import static org.awaitility.Awaitility.await;

import io.hcwatch.collect.ConfigReader;
import io.hcwatch.collect.aws.AwsCredentialSecrecyIT;
import io.hcwatch.collect.aws.AwsSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The ALB collector, with the default credential chain, against an ELBv2 stand-in that answers
 * every request with a 403 quoting it, then a 500, then malformed XML, and against a closed port
 * (test code for AwsCredentialSecrecyIT). Returns the texts it produced besides logs: metrics.
 */
public final class HostileElb {

    private HostileElb() {
    }

    public static List<String> run(String bootstrap, String closedEndpoint) {
        List<String> texts = new ArrayList<>();
        try (ElbStandIn elb = new ElbStandIn()) {
            elb.addLb("web-lb", Map.of("us-east-1a", "subnet-1"));
            try (AlbCollector collector = collector(bootstrap, elb.endpoint().toString())) {
                collector.start();
                for (ElbStandIn.Hostile mode : ElbStandIn.Hostile.values()) {
                    elb.hostile = mode;
                    long before = elb.served.size();
                    await(mode.name()).atMost(Duration.ofSeconds(60)).until(() -> elb.served.size() >= before + 2);
                }
                texts.add(collector.registry().scrape());
            }
        }
        try (AlbCollector refused = collector(bootstrap, closedEndpoint)) {
            refused.start();
            await("connection refused").atMost(Duration.ofSeconds(60)).until(() -> refused.registry()
                    .find("hcwatch.collector.api.errors").tag("reason", "connection_refused").counter() != null);
            texts.add(refused.registry().scrape());
        }
        return texts;
    }

    private static AlbCollector collector(String bootstrap, String endpoint) {
        Properties p = AwsCredentialSecrecyIT.base(bootstrap);
        p.setProperty("aws.endpoint.elbv2", endpoint);
        p.setProperty("alb.load-balancers", "web-lb");
        p.setProperty("alb.health.interval.ms", "1000");
        p.setProperty("alb.config.interval.ms", "1000");
        p.setProperty("alb.api.rate", "20");
        p.setProperty("alb.backoff.initial.ms", "50");
        p.setProperty("alb.backoff.max.ms", "200");
        return new AlbCollector(AlbConfig.read(new ConfigReader(p), () -> null), AwsSettings.credentials());
    }
}
