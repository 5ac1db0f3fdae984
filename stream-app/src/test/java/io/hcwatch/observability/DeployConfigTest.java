package io.hcwatch.observability;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.app.StreamAppConfig;
import io.hcwatch.sink.SinkConfig;
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
    void theSinkConfigLoadsAndServesMetricsWherePrometheusLooks() throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(RepoFiles.resolve("deploy/alert-sink.properties"))) {
            p.load(r);
        }
        SinkConfig config = SinkConfig.from(p);
        assertThat(config.sinks()).containsExactly("stdout");
        assertThat(Files.readString(RepoFiles.resolve("prometheus/prometheus.yml")))
                .contains("'alert-sink:" + config.metricsPort() + "'");
    }
}
