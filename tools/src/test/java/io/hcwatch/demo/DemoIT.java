package io.hcwatch.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.simulate.Scenario;
import io.hcwatch.simulate.ScenarioParams;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The demo as users run it, shortened: a real broker, the HTTP schema registry, the stream app and
 * the alert sink in this JVM, a scenario produced through Kafka. What it reports is what the sink
 * delivered, so an alert here went the whole production path.
 */
class DemoIT {

    private final ByteArrayOutputStream output = new ByteArrayOutputStream();

    private Demo.Options options(Scenario scenario, ScenarioParams params, double speed) {
        PrintStream out = new PrintStream(output, true, StandardCharsets.UTF_8);
        return new Demo.Options(scenario, params, speed, out, false, false, Map.of());
    }

    private String printed() {
        return output.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aSharedDependencyOutageComesThroughKafkaAndTheSinkDiagnosed() {
        Scenario s = Scenario.SHARED_DEPENDENCY;
        ScenarioParams short_ = s.defaults().withTiming(Duration.ofSeconds(100), Duration.ofSeconds(40));
        Demo.Report report = new Demo(options(s, short_, 20)).run(() -> false);

        assertThat(report.interrupted()).isFalse();
        assertThat(report.produced()).isPositive();
        assertThat(report.firing("correlated_failure")).isNotEmpty().first().satisfies((Alert a) -> {
            assertThat(a.getDetails()).containsEntry("diagnosis", "shared_dependency_deep_check");
            assertThat(a.getScope().getTargetGroup()).isEqualTo("prod-web-tg");
            assertThat(a.getRunbookUrl()).endsWith("runbooks/correlated-failure.md");
        });
        assertThat(report.incidents()).as("one story, one incident").extracting(i -> i.getIncidentKey()).containsOnly(
                "target_group/prod-web-tg");
        assertThat(report.incidents().stream().map(i -> i.getIncidentId()).distinct()).hasSize(1);
        assertThat(report.incidents().get(report.incidents().size() - 1).getMembers())
                .extracting(m -> m.getDedupKey()).contains("correlated_failure/prod-web-tg");
        assertThat(printed()).contains("Stream app RUNNING", "correlated_failure", "Summary: shared-dependency",
                "Incidents (what PagerDuty gets", "target_group/prod-web-tg  headline", "in real life", "Stopped everything");
        assertThat(printed()).doesNotContain("\u001b[");
    }

    @Test
    void stoppingMidwayShutsEverythingDownAndStillSummarises() {
        Scenario s = Scenario.ZONAL_GRAY_FAILURE;
        ScenarioParams params = s.defaults().withTiming(Duration.ofMinutes(10), Duration.ofSeconds(30));
        long started = System.nanoTime();
        // 30x, not 10x: on the AWS path the alert trails the onset by the source delay (7.5 simulated minutes),
        // which at 10x was most of this test's wall time, all spent producing at pace for it
        // Ctrl-C sets the same flag: stop once the first alert has been shown
        Demo.Report report = new Demo(options(s, params, 30)).run(() -> printed().contains("zonal_failure"));

        assertThat(report.interrupted()).isTrue();
        assertThat(report.firing("zonal_failure")).isNotEmpty();
        assertThat(printed()).contains("interrupted", "Stopped everything");
        // this scenario's demo takes the AWS path: the collector's records and ALB's logs in S3 objects
        assertThat(printed()).contains("The AWS path", "S3 object → alb-health-check-logs", "window.source-delay");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMinutes(2));
    }
}
