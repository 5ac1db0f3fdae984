package io.hcwatch.collect.alb;

import io.hcwatch.collect.ConfigReader;
import io.hcwatch.kafka.EmbeddedKafkaBroker;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * How many ELBv2 requests a minute the collector makes at its default settings (health every 10 s,
 * discovery every 5 min, budget 2 requests/s) for N target groups with targets, counted by the
 * stand-in that served them, beside the budget: over the run, in the last 60 s before the stop,
 * and in the busiest 60 s window. Test code, run by
 * {@code mvn -B -ntp -pl collectors -am verify -DskipTests -Pbench-alb} (collectors/README.md); {@code -Dbench.rate=6} sets {@code alb.api.rate} instead of the default.
 */
public final class AlbApiRateBench {

    private AlbApiRateBench() {
    }

    public static void main(String[] args) throws Exception {
        int groups = 50;
        int targets = 20;
        int minutes = 3;
        String rate = null;
        for (String a : args) {
            if (a.startsWith("--target-groups=")) {
                groups = Integer.parseInt(a.substring(16));
            } else if (a.startsWith("--targets=")) {
                targets = Integer.parseInt(a.substring(10));
            } else if (a.startsWith("--minutes=")) {
                minutes = Integer.parseInt(a.substring(10));
            } else if (a.startsWith("--rate=") && a.length() > 7) {
                rate = a.substring(7);
            }
        }
        try (EmbeddedKafkaBroker kafka = EmbeddedKafkaBroker.start(); ElbStandIn elb = new ElbStandIn()) {
            kafka.createTopics(1, "lb-config", "health-check-results");
            ElbStandIn.Lb lb = elb.addLb("bench-lb", Map.of("us-east-1a", "subnet-a", "us-east-1b", "subnet-b"));
            for (int g = 0; g < groups; g++) {
                ElbStandIn.Tg tg = elb.addTg("tg-" + g, lb, "ip");
                for (int t = 0; t < targets; t++) {
                    tg.add("10." + (g / 200) + "." + (g % 200) + "." + (10 + t), 8080, t % 2 == 0 ? "us-east-1a" : "us-east-1b");
                }
            }
            Properties p = elb.collectorProperties(kafka.bootstrapServers(), "bench-lb");
            if (rate != null) {
                p.setProperty("alb.api.rate", rate);
            }
            AlbConfig config = AlbConfig.read(new ConfigReader(p), () -> null);
            long start = System.nanoTime();
            long stoppedAt;
            try (AlbCollector collector = new AlbCollector(config,
                    StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDBENCH", "bench")))) {
                collector.start();
                Thread.sleep(TimeUnit.MINUTES.toMillis(minutes));
                // the windows end here: starting the collector (its producer, the SDK) and closing it
                // take seconds on a busy machine, and a "last minute" that reached to the end of close
                // was that much longer than a minute (134 requests in 66.6 s, 2026-12-02)
                stoppedAt = System.nanoTime();
            }
            long minute = TimeUnit.MINUTES.toNanos(1);
            List<Long> at = elb.served.stream().map(ElbStandIn.Served::nanos).sorted().toList();
            long first = at.isEmpty() ? start : at.get(0);
            long running = at.stream().filter(t -> t < stoppedAt).count();
            double runningMin = (stoppedAt - first) / 60e9;
            Map<String, Long> byAction = new TreeMap<>();
            elb.served.forEach(s -> byAction.merge(s.action(), 1L, Long::sum));
            long lastMinute = elb.served.stream().filter(s -> s.nanos() >= stoppedAt - minute && s.nanos() < stoppedAt).count();
            long healthLastMinute = elb.served.stream().filter(s -> s.nanos() >= stoppedAt - minute && s.nanos() < stoppedAt
                    && s.action().equals("DescribeTargetHealth")).count();
            int busiest = 0;
            long busiestFrom = first;
            for (int from = 0, to = 0; to < at.size(); to++) {
                while (at.get(to) - at.get(from) >= minute) {
                    from++;
                }
                if (to - from + 1 > busiest) {
                    busiest = to - from + 1;
                    busiestFrom = at.get(from);
                }
            }
            System.out.printf("ELBv2 API rate: %d target groups x %d targets, settings (health %d ms, discovery %d ms, budget %.1f req/s"
                            + " burst %d = at most %.0f req in any 60 s), %.2f min from the first request to the stop%n", groups, targets,
                    config.healthInterval().toMillis(), config.configInterval().toMillis(), config.apiRate(), config.apiBurst(),
                    config.apiRate() * 60 + config.apiBurst() - 1, runningMin);
            System.out.printf("  requests served: %d until the stop (%.1f/min), %d more while closing; by action %s%n", running,
                    running / runningMin, at.size() - running, byAction);
            System.out.printf("  busiest 60 s window (as served, close included): %d requests, from %.1f s after the first%n", busiest,
                    (busiestFrom - first) / 1e9);
            System.out.printf("  last 60 s before the stop: %d requests (%d DescribeTargetHealth): each target group polled every %.1f s"
                            + " (asked: %.1f s); needed for the asked interval: %.1f req/min%n", lastMinute, healthLastMinute,
                    healthLastMinute == 0 ? Double.NaN : 60.0 * groups / healthLastMinute, config.healthInterval().toMillis() / 1000.0,
                    config.demandPerSecond(groups, 1) * 60);
        }
    }
}
