package io.hcwatch.observability;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.app.StreamAppConfig;
import io.hcwatch.sink.SinkConfig;
import io.hcwatch.testsupport.RepoFiles;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The config files docker-compose mounts are accepted by the apps and agree with what Prometheus scrapes. */
class DeployConfigTest {

    @Test
    void theStreamAppConfigLoadsAndServesMetricsWherePrometheusLooks() throws IOException {
        StreamAppConfig config = StreamAppConfig.load(RepoFiles.resolve("deploy/stream-app.properties"));
        assertThat(config.bootstrapServers()).isEqualTo("kafka:9092");
        assertThat(config.metricsHost()).isEqualTo("0.0.0.0");
        assertThat(Files.readString(RepoFiles.resolve("prometheus/prometheus.yml")))
                .contains("'stream-app:" + config.metricsPort() + "'");
    }

    @Test
    void theAwsStreamAppConfigIsTheStreamAppConfigWaitingForAlbLogsFromS3() throws IOException {
        Properties base = properties("deploy/stream-app.properties");
        Properties aws = properties("deploy/stream-app-aws.properties");
        assertThat(aws.remove("detect.window.source-delay")).isEqualTo("alb=10m,alb-health=10m");
        assertThat(aws).as("everything else as deploy/stream-app.properties").isEqualTo(base);
        StreamAppConfig config = StreamAppConfig.load(RepoFiles.resolve("deploy/stream-app-aws.properties"));
        assertThat(config.settings().durationsByName("window.source-delay"))
                .isEqualTo(java.util.Map.of("alb", java.time.Duration.ofMinutes(10), "alb-health", java.time.Duration.ofMinutes(10)));
    }

    @Test
    void theHandWrittenZoneConfigParsesWithZonesForRawLogLines() throws IOException {
        String line = Files.readString(RepoFiles.resolve("deploy/lb-config-web-tg.jsonl")).strip();
        io.hcwatch.parse.ParseResult<io.hcwatch.avro.v1.LbConfig> parsed = new io.hcwatch.parse.LbConfigJson().parse(line);
        assertThat(parsed).isInstanceOf(io.hcwatch.parse.ParseResult.Ok.class);
        io.hcwatch.avro.v1.LbConfig config = ((io.hcwatch.parse.ParseResult.Ok<io.hcwatch.avro.v1.LbConfig>) parsed).value();
        assertThat(config.getId()).isEqualTo("web-tg");
        assertThat(config.getTargetZones()).as("no collector: no target map").isNull();
        assertThat(config.getZoneCidrs().keySet()).extracting(Object::toString)
                .containsExactlyInAnyOrder("us-east-1a", "us-east-1b", "us-east-1c");
    }

    private static Properties properties(String file) throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(RepoFiles.resolve(file))) {
            p.load(r);
        }
        return p;
    }

    @Test
    void theSinkConfigLoadsAndServesMetricsWherePrometheusLooks() throws IOException {
        SinkConfig config = SinkConfig.from(properties("deploy/alert-sink.properties"));
        assertThat(config.sinks()).containsExactly("stdout");
        assertThat(Files.readString(RepoFiles.resolve("prometheus/prometheus.yml")))
                .contains("'alert-sink:" + config.metricsPort() + "'");
    }
}
