package io.hcwatch.it;

import io.hcwatch.avro.v1.CheckConfig;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.parse.HealthCheckResultJson;
import io.hcwatch.topology.Source;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A small, deterministic correlated-failure incident as health-check JSON: 12 targets in three
 * zones pass for a minute, 6 of them fail for 40 seconds, then everything recovers. Checks every
 * 5 seconds per target, each target group of its own fleet so keys spread over partitions.
 */
final class IncidentFixture {

    static final long T0 = Instant.parse("2026-03-03T14:30:00Z").toEpochMilli();
    static final int TARGETS = 12;

    private final int fleets;

    IncidentFixture(int fleets) {
        this.fleets = fleets;
    }

    List<Telemetry> healthy(long from, long to) {
        return checks(from, to, false, HealthCheckResultJson::writeBytes);
    }

    List<Telemetry> failing(long from, long to) {
        return checks(from, to, true, HealthCheckResultJson::writeBytes);
    }

    /** The same checks, each value written by {@code encoding} (e.g. Avro in the wire format). */
    List<Telemetry> checks(long from, long to, boolean failing, Function<HealthCheckResult, byte[]> encoding) {
        List<Telemetry> out = new ArrayList<>();
        for (long t = from; t < to; t += 5_000) {
            for (int f = 0; f < fleets; f++) {
                for (int i = 0; i < TARGETS; i++) {
                    boolean fails = failing && i % 2 == 0;
                    // staggered within the round, so that a fleet of hundreds of groups still checks in rounds
                    long ts = t + f * 37L % 4_000 + i * 13L;
                    HealthCheckResult r = HealthCheckResult.newBuilder()
                            .setTs(Instant.ofEpochMilli(ts))
                            .setSource("alb")
                            .setLb("app/prod-web/50dc6c495c0c9188")
                            .setTargetGroup("tg-" + f)
                            .setTarget("i-" + f + "-" + i)
                            .setTargetIp("10.0." + f + "." + (10 + i))
                            .setPort(8080)
                            .setAz("us-east-1" + "abc".charAt(i % 3))
                            .setOutcome(fails ? CheckOutcome.timeout : CheckOutcome.pass)
                            .setLatencyMs(fails ? 2001 : 120 + i)
                            .setStatusCode(fails ? null : 200)
                            .setState(fails ? TargetState.unhealthy : TargetState.healthy)
                            .setReason(fails ? "Target.Timeout" : null)
                            .setCheck(CheckConfig.newBuilder().setPath("/health").setIntervalMs(5000).setTimeoutMs(2000)
                                    .setHealthyThreshold(3).setUnhealthyThreshold(2).build())
                            .build();
                    // docs/contract.md: health-check-results are keyed by target id
                    out.add(new Telemetry(Source.HEALTH, ts, encoding.apply(r), r.getTarget()));
                }
            }
        }
        return out;
    }
}
