package io.hcwatch.collect.alblogs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hcwatch.collect.ConfigReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AlbLogsConfigTest {

    private static Properties base() {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", "kafka:9092");
        p.setProperty("format", "json");
        p.setProperty("aws.region", "us-east-1");
        p.setProperty("alb-logs.queue-url", "https://sqs.us-east-1.amazonaws.com/123456789012/alb-logs");
        return p;
    }

    @Test
    void theComposeFilesConfigLoads() {
        // tests run in the module's directory; deploy/ is the repository's
        AlbLogsConfig c = AlbLogsConfig.read(ConfigReader.load(Path.of("..", "deploy", "alb-logs-collector.properties")), () -> null);
        assertThat(c.queueName()).isEqualTo("hcwatch-alb-logs");
        assertThat(c.stateFile()).isEqualTo(Path.of("/var/lib/hcwatch/alb-logs/alb-logs.completed"));
        assertThat(c.publish().metricsPort()).isEqualTo(9407);
    }

    @Test
    void defaultsLongPollTwentySecondsAndKeepCompletionsADay() {
        AlbLogsConfig c = AlbLogsConfig.read(new ConfigReader(base()), () -> null);

        assertThat(c.waitSeconds()).isEqualTo(20);
        assertThat(c.maxMessages()).isEqualTo(10);
        assertThat(c.stateRetention()).isEqualTo(Duration.ofHours(24));
        assertThat(c.queueName()).isEqualTo("alb-logs");
        assertThat(c.accessTopic()).isEqualTo("alb-access-logs");
        assertThat(c.healthTopic()).isEqualTo("alb-health-check-logs");
        assertThat(c.dlqTopic()).isEqualTo("telemetry-dlq");
        assertThat(c.s3PathStyle()).isFalse();
        assertThat(c.limits()).isEqualTo(new ObjectLimits(1L << 30, 16L << 30, 131_072, 5));
    }

    @Test
    void limitsAreReadInTheirUnits() {
        Properties set = base();
        set.setProperty("alb-logs.max-object-mib", "64");
        set.setProperty("alb-logs.max-decompressed-mib", "640");
        set.setProperty("alb-logs.max-line-bytes", "32768");
        set.setProperty("alb-logs.max-attempts", "2");
        assertThat(AlbLogsConfig.read(new ConfigReader(set), () -> null).limits())
                .isEqualTo(new ObjectLimits(64L << 20, 640L << 20, 32_768, 2));
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', textBlock = """
            alb-logs.route.access       | AWSLogs/( | config key 'alb-logs.route.access': is not a regular expression
            alb-logs.queue-url          | alb-logs  | config key 'alb-logs.queue-url': expected the queue's URL
            aws.s3.path-style           | yes       | config key 'aws.s3.path-style'
            alb-logs.max-line-bytes     | 2000000   | config key 'alb-logs.max-line-bytes'
            alb-logs.max-attempts       | 0         | config key 'alb-logs.max-attempts'
            alb-logs.max-object-mib     | 0         | config key 'alb-logs.max-object-mib'
            """)
    void mistakesAreRefusedNamingTheKey(String key, String value, String message) {
        Properties p = base();
        p.setProperty(key, value);
        assertThatThrownBy(() -> AlbLogsConfig.read(new ConfigReader(p), () -> null)).hasMessageStartingWith(message);
    }
}
