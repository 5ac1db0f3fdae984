package io.hcwatch.simulate;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertStatus;
import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.avro.v1.Incident;
import io.hcwatch.config.Settings;
import io.hcwatch.replay.ReplayPipeline;
import io.hcwatch.replay.ReplayStores;
import io.hcwatch.topology.Decoders;
import io.hcwatch.topology.Source;
import io.hcwatch.topology.Topics;
import io.hcwatch.topology.TopologyConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Runs a scenario straight into the topology's own processors ({@link ReplayPipeline}): no files,
 * no broker, every record parsed exactly as the stream app parses it. What scenario tests,
 * {@code ./hcwatch simulate --replay} and benchmarks use to see what hcwatch makes of a scenario.
 */
public final class ScenarioReplay {

    private ScenarioReplay() {
    }

    /**
     * What came out: alerts in event-time order, the incident pages in the order they were made, dead
     * letters (the simulator's lines must all parse), counts.
     */
    public record Result(Scenario scenario, ScenarioParams params, List<Alert> alerts, List<Incident> incidents,
                         List<DeadLetter> deadLetters, Map<Source, Long> records, long wallMillis) {

        public long totalRecords() {
            return records.values().stream().mapToLong(Long::longValue).sum();
        }

        /** Firing notifications, in event-time order. */
        public List<Alert> firing() {
            return alerts.stream().filter(a -> a.getStatus() == AlertStatus.firing).toList();
        }

        /** Event time of the onset in epoch milliseconds. */
        public long onsetMillis() {
            return params.onsetTime().toEpochMilli();
        }

        /** How long after the onset (event time) {@code alert} fired. */
        public Duration sinceOnset(Alert alert) {
            return Duration.ofMillis(alert.getEventTime().toEpochMilli() - onsetMillis());
        }
    }

    public static Result run(Scenario scenario) {
        return run(scenario, scenario.defaults(), Settings.defaults(), t -> { });
    }

    /**
     * @param tap sees every record before the pipeline does (e.g. to find the first failed check)
     */
    public static Result run(Scenario scenario, ScenarioParams params, Settings settings, Consumer<Telemetry> tap) {
        return run(scenario, params, settings, tap, false);
    }

    /** @param aws the scenario as an AWS account delivers it ({@link Simulation#ofAws}), in event-time order */
    public static Result run(Scenario scenario, ScenarioParams params, Settings settings, Consumer<Telemetry> tap, boolean aws) {
        long started = System.nanoTime();
        Map<String, Object> serde = Map.of("schema.registry.url", "mock://hcwatch-scenario-replay");
        // every simulated line carries its year; the clock only matters for lines that do not
        Clock clock = Clock.fixed(params.start(), ZoneOffset.UTC);
        TopologyConfig config = new TopologyConfig(Topics.defaults(), settings, Decoders.standard(Topics.defaults(), serde, clock),
                serde, new SimpleMeterRegistry(), false);
        List<Alert> alerts = new ArrayList<>();
        List<DeadLetter> dead = new ArrayList<>();
        List<Incident> incidents = new ArrayList<>();
        ReplayPipeline pipeline = new ReplayPipeline(config, alerts::add, incidents::add, dead::add, ReplayStores.DETACHED);
        Map<Source, Long> counts = new EnumMap<>(Source.class);
        long[] line = new long[1];
        (aws ? Simulation.ofAws(scenario, params) : Simulation.of(scenario, params)).run(t -> {
            tap.accept(t);
            counts.merge(t.source(), 1L, Long::sum);
            pipeline.feed(t.source(), t.value(), t.eventTimeMillis(), "simulated " + t.source().id(), ++line[0]);
        });
        pipeline.finish();
        alerts.sort(Comparator.comparing(Alert::getEventTime));
        return new Result(scenario, params, List.copyOf(alerts), List.copyOf(incidents), List.copyOf(dead), counts,
                (System.nanoTime() - started) / 1_000_000);
    }
}
