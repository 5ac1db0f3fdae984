package io.hcwatch.collect.alb;

import io.hcwatch.collect.ConfigException;
import io.hcwatch.collect.ConfigReader;
import io.hcwatch.collect.PublishConfig;
import io.hcwatch.collect.aws.AwsSettings;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import software.amazon.awssdk.regions.Region;

/**
 * {@code collect alb --config FILE}: the shared publishing keys, AWS settings, which load balancers
 * to watch, timing and the request budget. collectors/README.md has the table.
 *
 * @param loadBalancers ARNs ({@code arn:...}) or names, as given
 * @param tags          load balancers carrying every one of these tags (DescribeTags), when set
 */
record AlbConfig(PublishConfig publish, AwsSettings aws, String configTopic, String healthTopic, List<String> loadBalancers,
                 Map<String, String> tags, Duration healthInterval, Duration configInterval, double apiRate, int apiBurst,
                 Duration backoffInitial, Duration backoffMax) {

    static final int DEFAULT_METRICS_PORT = 9406;

    static AlbConfig read(ConfigReader in, Supplier<Region> regionChain) {
        PublishConfig publish = PublishConfig.read(in, DEFAULT_METRICS_PORT);
        List<String> lbs = in.list("alb.load-balancers");
        Map<String, String> tags = new LinkedHashMap<>();
        for (String pair : in.list("alb.tags")) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw ConfigException.key("alb.tags", "expected key=value pairs separated by commas, got '" + pair + "'");
            }
            tags.put(pair.substring(0, eq).strip(), pair.substring(eq + 1).strip());
        }
        if (lbs.isEmpty() && tags.isEmpty()) {
            throw ConfigException.key("alb.load-balancers", "name at least one load balancer (ARN or name), or select them"
                    + " with alb.tags=key=value");
        }
        if (!lbs.isEmpty() && !tags.isEmpty()) {
            throw ConfigException.key("alb.tags", "set either alb.load-balancers or alb.tags, not both");
        }
        boolean arns = lbs.stream().anyMatch(s -> s.startsWith("arn:"));
        if (arns && !lbs.stream().allMatch(s -> s.startsWith("arn:"))) {
            throw ConfigException.key("alb.load-balancers", "give either ARNs or names, not a mix");
        }
        Duration health = in.millis("alb.health.interval.ms", 10_000, 1_000, 3_600_000);
        Duration config = in.millis("alb.config.interval.ms", 300_000, 1_000, 86_400_000);
        double rate = decimal(in, "alb.api.rate", 2.0, 0.05, 50);
        int burst = in.integer("alb.api.burst", 1, 1, 100);
        Duration backoffInitial = in.millis("alb.backoff.initial.ms", 1_000, 1, 3_600_000);
        Duration backoffMax = in.millis("alb.backoff.max.ms", health.toMillis(), 1, 3_600_000);
        if (backoffMax.compareTo(backoffInitial) < 0) {
            throw ConfigException.key("alb.backoff.max.ms", "must be >= alb.backoff.initial.ms");
        }
        AwsSettings aws = AwsSettings.read(in, List.of("elbv2"), regionChain);
        AlbConfig c = new AlbConfig(publish, aws, in.text("topic.config", "lb-config"),
                in.text("topic.health", "health-check-results"), lbs, Map.copyOf(tags), health, config, rate, burst,
                backoffInitial, backoffMax);
        in.refuseUnclaimed();
        return c;
    }

    static double decimal(ConfigReader in, String key, double defaultValue, double min, double max) {
        String text = in.text(key, null);
        if (text == null) {
            return defaultValue;
        }
        try {
            double v = Double.parseDouble(text);
            if (!(v >= min && v <= max)) {
                throw ConfigException.key(key, "expected " + min + ".." + max + ", got " + text);
            }
            return v;
        } catch (NumberFormatException e) {
            throw ConfigException.key(key, "expected a number, got '" + text + "'");
        }
    }

    /** Requests a second the configured polling needs, beside the budget: a warning at start when above. */
    double demandPerSecond(int targetGroups, int loadBalancers) {
        double health = targetGroups / (healthInterval.toMillis() / 1000.0);
        double slow = (1 + 2.0 * loadBalancers + targetGroups) / (configInterval.toMillis() / 1000.0);
        return health + slow;
    }
}
