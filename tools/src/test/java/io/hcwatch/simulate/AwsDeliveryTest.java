package io.hcwatch.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.config.Settings;
import io.hcwatch.topology.Source;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The simulator's AWS path: the collector's records, and ALB's logs as S3 objects laid out and timed as AWS delivers them. */
class AwsDeliveryTest {

    /**
     * The access-log file name AWS documents
     * ({@code aws-account-id_elasticloadbalancing_region_app.load-balancer-id_end-time_ip-address_random-string.log.gz}
     * under {@code AWSLogs/aws-account-id/elasticloadbalancing/region/yyyy/mm/dd/}), written out by hand.
     */
    private static final Pattern ACCESS = Pattern.compile(
            "AWSLogs/111122223333/elasticloadbalancing/us-east-1/2026/03/03/111122223333_elasticloadbalancing_us-east-1_"
                    + "app\\.prod-web\\.50dc6c495c0c9188_20260303T14[0-5][05]Z_10\\.0\\.10[0-2]\\.17_[0-9a-z]{8}\\.log\\.gz");
    private static final Pattern HEALTH = Pattern.compile(
            "AWSLogs/111122223333/elasticloadbalancing/us-east-1/2026/03/03/health_check_log_111122223333_elasticloadbalancing_us-east-1_"
                    + "app\\.prod-web\\.50dc6c495c0c9188_20260303T14[0-5][05]Z_10\\.0\\.10[0-2]\\.17_[0-9a-z]{8}\\.log\\.gz");

    private static ScenarioParams shortParams() {
        return Scenario.ZONAL_GRAY_FAILURE.defaults().withTiming(Duration.ofMinutes(11), Duration.ofMinutes(4))
                .withAlbRequestsPerSecond(5).withHaproxyRequestsPerSecond(0);
    }

    @Test
    void logLinesGoToOneObjectPerNodeAndFiveMinutesDeliveredAfterTheirPeriodAndKeyedAsAwsLaysThemOut(@TempDir Path dir)
            throws IOException {
        ScenarioParams params = shortParams();
        AwsDelivery delivery = new AwsDelivery(params.zones());
        List<Telemetry> health = new ArrayList<>();
        Simulation.ofAws(Scenario.ZONAL_GRAY_FAILURE, params).run(t -> {
            delivery.accept(t);
            if (t.source() == Source.HEALTH) {
                health.add(t);
            }
        });
        List<AwsDelivery.LogObject> objects = delivery.objects();
        // 11 minutes: periods ending 14:05, 14:10, 14:15; three nodes; access and health-check logs
        assertThat(objects).hasSize(3 * 3 * 2);
        for (AwsDelivery.LogObject o : objects) {
            assertThat(o.key()).matches(o.source() == Source.ALB_HEALTH ? HEALTH : ACCESS);
            assertThat(o.lines()).isNotEmpty().allSatisfy(t -> {
                assertThat(t.source()).isEqualTo(o.source());
                assertThat(t.eventTimeMillis()).isBetween(o.periodEnd() - AwsDelivery.PERIOD_MS, o.periodEnd() - 1);
            });
            assertThat(o.deliverAt() - o.periodEnd()).isEqualTo(60_000 + o.node() * 45_000L);
        }
        assertThat(objects.stream().mapToLong(o -> o.deliverAt() - o.lines().get(0).eventTimeMillis()).max().orElseThrow())
                .isLessThanOrEqualTo(AwsDelivery.longestDelayMillis(params.zones()));
        // the collector: ip:port targets with their zone, published on a change or once per check interval
        assertThat(health).isNotEmpty().allSatisfy(t -> assertThat(t.text()).containsPattern(
                "\"target\":\"10\\.0\\.\\d+\\.\\d+:\\d+\"").containsPattern("\"az\":\"us-east-1[abc]\""));
        assertThat(delivery.deliveries()).extracting(AwsDelivery.Delivery::at).isSorted();

        delivery.writeObjects(dir);
        AwsDelivery.LogObject first = objects.get(0);
        try (InputStream in = new GZIPInputStream(Files.newInputStream(dir.resolve(first.key())))) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertThat(text.lines()).containsExactlyElementsOf(first.lines().stream().map(Telemetry::text).toList());
        }
        try (Stream<Path> files = Files.walk(dir)) {
            assertThat(files.filter(Files::isRegularFile).count()).isEqualTo(objects.size());
        }
    }

    @Test
    void theZonalGrayFailureOnTheAwsPathIsStillFoundInItsZoneAndMasked() {
        ScenarioReplay.Result result = ScenarioReplay.run(Scenario.ZONAL_GRAY_FAILURE, Scenario.ZONAL_GRAY_FAILURE.defaults(),
                Settings.defaults(), t -> { }, true);
        assertThat(result.deadLetters()).isEmpty();
        ScenarioVerdict verdict = ScenarioVerdict.of(result);
        assertThat(verdict.problems()).isEmpty();
        assertThat(verdict.passed()).isTrue();
    }
}
