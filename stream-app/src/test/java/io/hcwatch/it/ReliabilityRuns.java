package io.hcwatch.it;

import static io.hcwatch.it.IncidentFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.app.StreamApp;
import io.hcwatch.app.StreamAppConfig;
import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertStatus;
import io.hcwatch.avro.v1.Incident;
import io.hcwatch.config.Settings;
import io.hcwatch.metrics.PipelineMetrics;
import io.hcwatch.replay.ReplayPipeline;
import io.hcwatch.replay.ReplayStores;
import io.hcwatch.topology.Decoders;
import io.hcwatch.topology.Topics;
import io.hcwatch.topology.TopologyConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Comparator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.awaitility.Awaitility;

/**
 * What ReliabilityIT and DisorderIT share: the apps' settings, a live run of in-process apps over an
 * input, replay of the same input, and the outcome both are compared by.
 */final class ReliabilityRuns {

    static final Duration WAIT = Duration.ofSeconds(120);
    static final int FLEETS = 3;
    static final Map.Entry<String, String> COOL_DOWN = Map.entry("alert.cool-down", "20s");

    static Map<String, String> guarantee(String g) {
        Map<String, String> m = new HashMap<>();
        m.put("streams.processing.guarantee", g);
        // the crashed instance's group membership must expire quickly for the restarted one to take over
        m.put("streams.session.timeout.ms", "10000");
        m.put("streams.heartbeat.interval.ms", "1000");
        // compare runs on event time only: no wall-clock extrapolation after the input ends
        m.put("detect.silence.enabled", "false");
        // the incident's recovery must resolve before its input ends, 100s later
        m.put("detect." + COOL_DOWN.getKey(), COOL_DOWN.getValue());
        return m;
    }

    static String tail(String log) {
        return log.substring(Math.max(0, log.length() - 4000));
    }

    /** Whether every fleet's correlated_failure reached {@code status}. */
    static boolean all(List<Alert> alerts, AlertStatus status, int keys) {
        return alerts.stream().filter(a -> a.getType().equals("correlated_failure") && a.getStatus() == status)
                .map(Alert::getDedupKey).distinct().count() >= keys;
    }

    /** The incident as a live run sees it: a minute healthy, 40s of half the fleet failing, recovery. */
    static List<Telemetry> incident(IncidentFixture fixture) {
        List<Telemetry> input = new ArrayList<>(fixture.healthy(T0, T0 + 60_000));
        input.addAll(fixture.failing(T0 + 60_000, T0 + 100_000));
        input.addAll(fixture.healthy(T0 + 100_000, T0 + 200_000));
        return input;
    }

    /** Runs {@code instances} in-process apps over {@code input}; returns dedup_key -> statuses with final severity. */
    static Map<String, List<String>> run(LiveHarness h, String name, int instances, Map<String, String> config,
                                                 List<Telemetry> input, Predicate<List<Alert>> done) throws Exception {
        return run(h, name, instances, config, input, done, WAIT);
    }

    static Map<String, List<String>> run(LiveHarness h, String name, int instances, Map<String, String> config,
                                                 List<Telemetry> input, Predicate<List<Alert>> done, Duration wait)
            throws Exception {
        List<StreamApp> apps = new ArrayList<>();
        try (LiveHarness.TopicReader<Alert> alerts = h.alerts();
             LiveHarness.TopicReader<Incident> incidents = h.incidents()) {
            for (int i = 0; i < instances; i++) {
                Map<String, String> cfg = new HashMap<>(guarantee("at_least_once"));
                // LiveHarness.produce runs event time about 20x faster than the wall clock: at the default 2 s
                // an input partition whose next record is 40 s of event time away counts as idle, the
                // watermark runs ahead of it and that record is applied after steps replay judged with it
                // (dns_failover raised live only, CI of 76dddd9). 10 s of wall time is 200 s of event time
                // here, as 2 s is 2 s live.
                cfg.put("detect.window.idle-timeout", "10s");
                cfg.putAll(config);
                // its own internal topics and consumer group on a broker other runs share
                cfg.put("application.id", "hcwatch-" + h.namespace + name);
                StreamApp app = new StreamApp(StreamAppConfig.load(h.appConfig(name + "-" + i, cfg)));
                app.start();
                apps.add(app);
            }
            Awaitility.await().atMost(WAIT).until(() -> apps.stream().allMatch(StreamApp::isReady));
            // not part of the input replay is given: whatever they raised would differ from it
            h.produce(QuietInputs.at(input.stream().mapToLong(Telemetry::eventTime).max().orElseThrow() + 1_000, h.inputPartitions));
            h.produce(input);
            try {
                Awaitility.await().atMost(wait).until(() -> done.test(alerts.poll())
                        && IncidentOutcomes.caughtUp(alerts.poll(), incidents.poll()));
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                throw new AssertionError("alerts so far: " + summarize(alerts.poll()) + "; incidents so far: "
                        + IncidentOutcomes.summarize(incidents.poll()) + "; app states: "
                        + apps.stream().map(a -> a.state().toString()).toList() + "; records: "
                        + apps.get(0).registry().find("hcwatch.records").counters().stream()
                        .map(c -> c.getId().getTags() + "=" + c.count()).toList(), e);
            }
            // no step judged without a record it covers: an outcome that happened to agree with replay
            // would hide the race that makes another run differ
            assertThat(apps.stream().mapToDouble(ReliabilityRuns::outOfStep).sum())
                    .as("records behind a step or late (%s, %s)", PipelineMetrics.BEHIND, PipelineMetrics.LATE).isZero();
            Map<String, List<String>> outcome = new TreeMap<>(summarize(alerts.poll()));
            outcome.putAll(IncidentOutcomes.summarize(incidents.poll()));
            return outcome;
        } finally {
            apps.forEach(StreamApp::close);
        }
    }

    private static double outOfStep(StreamApp app) {
        return app.registry().find(PipelineMetrics.BEHIND).counters().stream().mapToDouble(c -> c.count()).sum()
                + app.registry().find(PipelineMetrics.LATE).counters().stream().mapToDouble(c -> c.count()).sum();
    }

    /**
     * dedup_key -> "episodes:N firing:max severity resolved:yes|no". Severity steps on the way
     * depend on how summaries from different partitions happened to interleave; the outcome does not.
     */
    static Map<String, List<String>> summarize(List<Alert> alerts) {
        Map<String, Set<String>> episodes = new TreeMap<>();
        Map<String, String> worst = new TreeMap<>();
        Map<String, Boolean> resolved = new TreeMap<>();
        for (Alert a : alerts) {
            String key = a.getDedupKey();
            episodes.computeIfAbsent(key, k -> new TreeSet<>()).add(a.getAlertId());
            String sev = a.getSeverity().name();
            worst.merge(key, sev, (x, y) -> io.hcwatch.avro.v1.Severity.valueOf(x).ordinal()
                    <= io.hcwatch.avro.v1.Severity.valueOf(y).ordinal() ? x : y);
            resolved.put(key, a.getStatus() == AlertStatus.resolved);
        }
        Map<String, List<String>> out = new TreeMap<>();
        episodes.forEach((k, ids) -> out.put(k, List.of("episodes:" + ids.size(), "worst:" + worst.get(k),
                "ends resolved:" + resolved.get(k))));
        return out;
    }

    /** What replay of the same input raises: the files merged into event-time order, through the topology's processors. */
    static Map<String, List<String>> replay(List<Telemetry> input) {
        return replay(input, FLEETS);
    }

    /** The same for an input of {@code fleets} target groups, each with its correlated failure and incident. */
    static Map<String, List<String>> replay(List<Telemetry> input, int fleets) {
        Map<String, Object> serde = Map.of("schema.registry.url", "mock://reliability-replay");
        TopologyConfig config = new TopologyConfig(Topics.defaults(), Settings.defaults().with(Map.ofEntries(COOL_DOWN)),
                Decoders.standard(Topics.defaults(), serde, Clock.fixed(Instant.ofEpochMilli(T0), ZoneOffset.UTC)), serde,
                new SimpleMeterRegistry(), false);
        List<Alert> alerts = new ArrayList<>();
        List<Incident> incidents = new ArrayList<>();
        ReplayPipeline pipeline = new ReplayPipeline(config, alerts::add, incidents::add, d -> { }, ReplayStores.DETACHED);
        List<Telemetry> ordered = new ArrayList<>(input);
        ordered.sort(Comparator.comparingLong(Telemetry::eventTime));
        long line = 0;
        for (Telemetry t : ordered) {
            pipeline.feed(t.source(), t.value(), t.eventTime(), "reliability", ++line);
        }
        pipeline.finish();
        Map<String, List<String>> summary = new TreeMap<>(summarize(alerts));
        assertThat(summary.keySet()).as("replay raises the incident's correlated failures").filteredOn(k -> k.startsWith("correlated_failure/"))
                .hasSize(fleets);
        summary.putAll(IncidentOutcomes.summarize(incidents));
        assertThat(summary.keySet()).as("one incident per fleet").filteredOn(k -> k.startsWith("incident:target_group/")).hasSize(fleets);
        return summary;
    }

    private ReliabilityRuns() {
    }
}
