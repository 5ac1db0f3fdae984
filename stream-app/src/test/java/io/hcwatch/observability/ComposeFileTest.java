package io.hcwatch.observability;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.testsupport.ExternalTool;
import io.hcwatch.testsupport.RepoFiles;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** docker-compose.yml is valid for docker-compose ({@code config} parses and resolves it; no engine needed). */
class ComposeFileTest {

    @Test
    void dockerComposeAcceptsTheComposeFile() {
        ExternalTool.Result r = ExternalTool.dockerCompose().run(RepoFiles.root(), null, Duration.ofSeconds(60),
                "-f", "docker-compose.yml", "config", "-q");
        assertThat(r.exitCode()).as(r.output()).isZero();
    }

    @Test
    void theComposeFileHasEveryServiceTheSpecAsksFor() {
        ExternalTool.Result r = ExternalTool.dockerCompose().run(RepoFiles.root(), null, Duration.ofSeconds(60),
                "-f", "docker-compose.yml", "config", "--services");
        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.output().lines().toList()).contains("kafka", "schema-registry", "topic-init", "stream-app",
                "alert-sink", "simulator", "prometheus", "grafana", "haproxy", "demo-backend", "rsyslog", "haproxy-collector",
                "alb-collector", "alb-logs-collector");
    }
}
