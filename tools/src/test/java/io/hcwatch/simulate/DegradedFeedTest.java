package io.hcwatch.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertStatus;
import io.hcwatch.config.Settings;
import io.hcwatch.replay.ReplayPipeline;
import io.hcwatch.topology.Decoders;
import io.hcwatch.topology.Source;
import io.hcwatch.topology.Topics;
import io.hcwatch.topology.TopologyConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Unknown is not unhealthy. A health-check feed that hcwatch mostly cannot read (a producer
 * writing a value it does not accept) leaves the targets it names known to exist but of unknown
 * health. On a healthy fleet such a feed must raise nothing of severity warning or above that the
 * same telemetry raises without that feed at all, whether the unreadable records fall at random
 * or are exactly the passing checks (so that the checks still read are all failures). During an
 * incident, what the readable tenth shows must be what the whole feed shows: nothing beyond what
 * the full feed or no feed raises.
 */
class DegradedFeedTest {

    private static final String DAMAGE = "\"outcome\":\"mostly-ok\"";

    @ParameterizedTest(name = "{0}")
    @EnumSource(Damage.class)
    void aHealthyFleetWithAMostlyUnreadableFeedRaisesNothingThatNoFeedWouldNot(Damage damage) {
        ScenarioParams twoHours = Scenario.BASELINE.defaults().withDuration(Duration.ofHours(2));
        Set<String> withoutFeed = warningsOrWorse(Scenario.BASELINE, twoHours, t -> t.source() == Source.HEALTH ? null : t);
        Set<String> degraded = warningsOrWorse(Scenario.BASELINE, twoHours, damage.feed());
        assertThat(degraded).as("a healthy fleet, health-check results unreadable %s", damage).isSubsetOf(withoutFeed);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Scenario.class, names = {"TIMEOUT_CUT", "SHARED_DEPENDENCY", "ZONAL_GRAY_FAILURE", "FAIL_OPEN"})
    void duringAnIncidentTheReadableTenthShowsNothingTheWholeFeedDoesNot(Scenario scenario) {
        ScenarioParams params = scenario.defaults();
        Set<String> known = new TreeSet<>(warningsOrWorse(scenario, params, t -> t));
        known.addAll(warningsOrWorse(scenario, params, t -> t.source() == Source.HEALTH ? null : t));
        Set<String> degraded = warningsOrWorse(scenario, params, Damage.NINE_IN_TEN.feed());
        assertThat(degraded).as("%s with 90%% of health-check results unreadable", scenario.id()).isSubsetOf(known);
    }

    /** Which health-check results a producer writes so that they cannot be read. */
    enum Damage {
        /** Nine records in ten, whatever they say. */
        NINE_IN_TEN,
        /** Every passing check: what is still read is the failures. */
        EVERY_PASSING_CHECK;

        Function<Telemetry, Telemetry> feed() {
            int[] n = {0};
            return t -> {
                if (t.source() != Source.HEALTH) {
                    return t;
                }
                boolean damaged = this == NINE_IN_TEN ? n[0]++ % 10 != 0 : t.text().contains("\"outcome\":\"pass\"");
                return damaged ? damaged(t) : t;
            };
        }
    }

    /** A value outside the contract in an otherwise well-formed record: rejected, but it names its target. */
    private static Telemetry damaged(Telemetry t) {
        String text = t.text().replaceFirst("\"outcome\":\"[a-z_]+\"", DAMAGE);
        assertThat(text).contains(DAMAGE);
        return new Telemetry(t.source(), t.eventTimeMillis(), text.getBytes(StandardCharsets.UTF_8), t.key());
    }

    /** dedup_key of every firing alert of severity warning or above, over the scenario's telemetry as {@code feed} changes it. */
    private static Set<String> warningsOrWorse(Scenario scenario, ScenarioParams params, Function<Telemetry, Telemetry> feed) {
        Map<String, Object> serde = Map.of("schema.registry.url", "mock://degraded-feed-test");
        TopologyConfig config = new TopologyConfig(Topics.defaults(), Settings.defaults(),
                Decoders.standard(Topics.defaults(), serde, Clock.fixed(params.start(), ZoneOffset.UTC)), serde,
                new SimpleMeterRegistry(), false);
        List<Alert> alerts = new ArrayList<>();
        ReplayPipeline pipeline = new ReplayPipeline(config, alerts::add, d -> { });
        long[] line = {0};
        Simulation.of(scenario, params).run(t -> {
            Telemetry kept = feed.apply(t);
            if (kept != null) {
                pipeline.feed(kept.source(), kept.value(), kept.eventTimeMillis(), "degraded", ++line[0]);
            }
        });
        pipeline.finish();
        Set<String> keys = new TreeSet<>();
        for (Alert a : alerts) {
            if (a.getStatus() == AlertStatus.firing && a.getSeverity() != io.hcwatch.avro.v1.Severity.info) {
                keys.add(a.getDedupKey());
            }
        }
        return keys;
    }
}
