package io.hcwatch.detect.fleet;

import static io.hcwatch.detect.fleet.Checks.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.parse.AlbHealthCheckLogParser;
import io.hcwatch.parse.ParseResult;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Raw ALB health-check log lines carry no zone: their targets get it from the target group's
 * LbConfig (the collector's target map, or subnet CIDRs written by hand), so zonal_failure and its
 * cross-zone verdict work on them. Zone a's four targets (10.0.1.10-13) time out at T1, zone b's
 * (10.0.2.10-13) pass.
 */
class RawLogZonesTest {

    private static final long T1 = T0 + 60_000;
    private static final String ARN = "arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/" + Fleet.TG + "/73e2d6bc24d8a067";
    private final AlbHealthCheckLogParser parser = new AlbHealthCheckLogParser();
    private final ZonalFailureDetector detector = new ZonalFailureDetector(Fleet.SETTINGS, Fleet.DIAGNOSTICIAN);

    @ParameterizedTest(name = "{0}, config at {1} -> {2} {3}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # zones from  | config at | zone       | masked | why
            cidrs         | T0        | us-east-1a | true   | hand-written subnets: 10.0.1.0/24 is a, 10.0.2.0/24 is b
            target map    | T0        | us-east-1a | true   | the collector's map by ip:port
            target map    | T1+1s     | us-east-1a | true   | targets seen before the map are placed when it arrives
            none          | T0        | -          | -      | without zones no zone can be told from another
            """)
    void aZoneOfRawLogLinesFailsAlone(String from, String configAt, String zone, String masked, String why) {
        Fleet fleet = Fleet.alb();
        LbConfig config = config(from, configAt.equals("T0") ? T0 : T1 + 1_000);
        if (configAt.equals("T0")) {
            fleet.apply(config);
        }
        for (int k = 0; k < 4; k++) {
            fleet.apply(line("http %s 0.004 10.0.1.1%d:8080 %s healthy 200 -", T0, k));
            fleet.apply(line("http %s 0.004 10.0.2.1%d:8080 %s healthy 200 -", T0, k));
        }
        for (int k = 0; k < 4; k++) {
            fleet.apply(line("http %s 5.000 10.0.1.1%d:8080 %s unhealthy - Target.Timeout", T1, k));
            fleet.apply(line("http %s 0.004 10.0.2.1%d:8080 %s healthy 200 -", T1, k));
        }
        if (!configAt.equals("T0")) {
            fleet.apply(config);
        }
        // one check interval (registry.default-interval: raw lines give none) after the failures
        var findings = fleet.judge(detector, T1 + 30_000);
        if (zone == null) {
            assertThat(findings).as(why).isEmpty();
            return;
        }
        assertThat(findings).as(why).singleElement().satisfies(f -> {
            assertThat(f.details()).containsEntry("zone", zone);
            assertThat(f.details().get("masked")).isEqualTo(masked);
        });
    }

    private HealthCheckResult line(String format, long at, int k) {
        String text = String.format(format, Instant.ofEpochMilli(at), k, ARN);
        ParseResult<HealthCheckResult> parsed = parser.parse(text);
        assertThat(parsed).as(text).isInstanceOf(ParseResult.Ok.class);
        HealthCheckResult r = ((ParseResult.Ok<HealthCheckResult>) parsed).value();
        assertThat(r.getAz()).as("raw lines carry no zone").isNull();
        return r;
    }

    private static LbConfig config(String from, long at) {
        LbConfig.Builder b = Checks.lbConfig(Fleet.TG, at);
        if (from.equals("cidrs")) {
            b.setZoneCidrs(Map.of("us-east-1a", List.of("10.0.1.0/24"), "us-east-1b", List.of("10.0.2.0/24")));
        } else if (from.equals("target map")) {
            Map<String, String> targets = new java.util.HashMap<>();
            for (int k = 0; k < 4; k++) {
                targets.put("10.0.1.1" + k + ":8080", "us-east-1a");
                targets.put("10.0.2.1" + k + ":8080", "us-east-1b");
            }
            b.setTargetZones(targets);
        }
        return b.build();
    }
}
