package io.hcwatch.collect.alblogs;

import io.hcwatch.collect.ConfigException;
import io.hcwatch.collect.ConfigReader;
import io.hcwatch.collect.PublishConfig;
import io.hcwatch.collect.aws.AwsSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import software.amazon.awssdk.regions.Region;

/** {@code collect alb-logs --config FILE}; collectors/README.md has the table. */
record AlbLogsConfig(PublishConfig publish, AwsSettings aws, boolean s3PathStyle, String queueUrl, int waitSeconds,
                     int maxMessages, int retryVisibilitySeconds, KeyRouter router, Path stateFile, Duration stateRetention,
                     int maxRawBytes, ObjectLimits limits, String accessTopic, String healthTopic, String dlqTopic, Duration backoffInitial,
                     Duration backoffMax) {

    static final int DEFAULT_METRICS_PORT = 9407;

    static AlbLogsConfig read(ConfigReader in, Supplier<Region> regionChain) {
        PublishConfig publish = PublishConfig.read(in, DEFAULT_METRICS_PORT);
        String queue = in.required("alb-logs.queue-url");
        if (!queue.toLowerCase(Locale.ROOT).startsWith("https://") && !queue.toLowerCase(Locale.ROOT).startsWith("http://")) {
            throw ConfigException.key("alb-logs.queue-url", "expected the queue's URL, e.g. https://sqs.us-east-1.amazonaws.com"
                    + "/123456789012/alb-logs, got '" + queue + "'");
        }
        int wait = in.integer("alb-logs.wait.seconds", 20, 0, 20);
        int max = in.integer("alb-logs.max-messages", 10, 1, 10);
        int retry = in.integer("alb-logs.retry.visibility.seconds", 30, 0, 43_200);
        KeyRouter router = new KeyRouter(pattern(in, "alb-logs.route.access", KeyRouter.DEFAULT_ACCESS),
                pattern(in, "alb-logs.route.health", KeyRouter.DEFAULT_HEALTH));
        Path state = Path.of(in.text("alb-logs.state.file", "hcwatch-alb-logs.completed"));
        Duration retention = in.millis("alb-logs.state.retention.ms", 86_400_000, 60_000, 30L * 86_400_000);
        int raw = in.integer("alb-logs.dlq.max-raw-bytes", 65_536, 0, 900_000);
        ObjectLimits limits = ObjectLimits.read(in);
        Duration backoffInitial = in.millis("alb-logs.backoff.initial.ms", 1_000, 1, 3_600_000);
        Duration backoffMax = in.millis("alb-logs.backoff.max.ms", 60_000, 1, 3_600_000);
        if (backoffMax.compareTo(backoffInitial) < 0) {
            throw ConfigException.key("alb-logs.backoff.max.ms", "must be >= alb-logs.backoff.initial.ms");
        }
        boolean pathStyle = bool(in, "aws.s3.path-style");
        AwsSettings aws = AwsSettings.read(in, List.of("s3", "sqs"), regionChain);
        AlbLogsConfig c = new AlbLogsConfig(publish, aws, pathStyle, queue, wait, max, retry, router, state, retention, raw, limits,
                in.text("topic.alb-access-logs", "alb-access-logs"), in.text("topic.alb-health-check-logs", "alb-health-check-logs"),
                in.text("topic.dlq", "telemetry-dlq"), backoffInitial, backoffMax);
        in.refuseUnclaimed();
        return c;
    }

    private static Pattern pattern(ConfigReader in, String key, String defaultValue) {
        String text = in.text(key, defaultValue);
        try {
            return Pattern.compile(text);
        } catch (PatternSyntaxException e) {
            throw ConfigException.key(key, "is not a regular expression: " + e.getDescription());
        }
    }

    private static boolean bool(ConfigReader in, String key) {
        String text = in.text(key, "false").toLowerCase(Locale.ROOT);
        if (!text.equals("true") && !text.equals("false")) {
            throw ConfigException.key(key, "expected true or false, got '" + text + "'");
        }
        return text.equals("true");
    }

    /** The queue's name, as metrics label it. */
    String queueName() {
        return queueUrl.substring(queueUrl.lastIndexOf('/') + 1);
    }
}
