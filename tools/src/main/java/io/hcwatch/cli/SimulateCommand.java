package io.hcwatch.cli;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.config.Setting;
import io.hcwatch.config.Settings;
import io.hcwatch.serde.AlertJson;
import io.hcwatch.simulate.AwsDelivery;
import io.hcwatch.simulate.Scenario;
import io.hcwatch.simulate.ScenarioParams;
import io.hcwatch.simulate.ScenarioReplay;
import io.hcwatch.simulate.ScenarioVerdict;
import io.hcwatch.simulate.Simulation;
import io.hcwatch.simulate.SimulationStatus;
import io.hcwatch.simulate.TelemetryFiles;
import io.hcwatch.simulate.TelemetryProducer;
import io.hcwatch.topology.Source;
import io.hcwatch.topology.Topics;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./hcwatch simulate}: a scenario's telemetry to a Kafka cluster (in real or accelerated
 * time), to files for {@code replay}, or straight through the detectors in-process.
 */
@Command(name = "simulate", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Simulate a scenario's telemetry (ALB access and health-check logs, HAProxy logs, health-check"
                + " results, LbConfig) and produce it to Kafka, write it to files, or replay it in-process.",
                "Scenarios: timeout-cut (alias timeout-cascade), shared-dependency, ping-flood, zonal-gray-failure,"
                        + " fail-open, baseline; --list describes them."})
final class SimulateCommand implements Callable<Integer> {

    @Option(names = "--scenario", paramLabel = "NAME", description = "Scenario to simulate")
    String scenario;

    @Option(names = "--list", description = "Describe the scenarios and exit")
    boolean list;

    @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT", description = "Produce to this Kafka cluster")
    String bootstrapServers;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Write alb-access.log, alb-health-check.log, haproxy.log, health.jsonl, config.jsonl here")
    Path out;

    @Option(names = "--gzip", description = "With --out: gzip the files (.gz)")
    boolean gzip;

    @Option(names = "--aws", description = "As an AWS account delivers it: the collector's records (HealthCheckResult on each"
            + " change, LbConfig with the target->zone map), every check in ALB's health-check logs, and with --out the ALB"
            + " logs as 5-minute gzip objects per node under DIR/s3 (S3 key layout), with --bootstrap-servers each object"
            + " produced when it would be delivered")
    boolean aws;

    @Option(names = "--replay", description = "Run the scenario through the detectors in-process: alerts as JSON lines on"
            + " stdout, the verdict against the scenario's expectations on stderr (exit 1 if it fails)")
    boolean replay;

    @Option(names = "--speed", paramLabel = "N", defaultValue = "1",
            description = "With --bootstrap-servers: simulated seconds per wall-clock second (default 1, real time; 0 = as fast as possible)")
    double speed;

    @Option(names = "--seed", paramLabel = "S", description = "Random seed (default: the scenario's)")
    Long seed;

    @Option(names = "--start", paramLabel = "TIME", description = "Event time of the first record, ISO-8601 or 'now'"
            + " (default: now when producing to Kafka, the scenario's fixed start otherwise, so files are reproducible)")
    String start;

    @Option(names = "--duration", paramLabel = "D", description = "Simulated time, e.g. 15m (default: the scenario's)")
    String duration;

    @Option(names = "--onset", paramLabel = "D", description = "When the incident begins after the start, e.g. 5m")
    String onset;

    @Option(names = "--zones", paramLabel = "N", description = "Availability zones (1-6)")
    Integer zones;

    @Option(names = "--targets-per-zone", paramLabel = "N", description = "Targets of prod-web-tg per zone")
    Integer targetsPerZone;

    @Option(names = "--alb-rate", paramLabel = "REQ/S", description = "ALB requests per second at the top of the load curve")
    Double albRate;

    @Option(names = "--utilization", paramLabel = "F", description = "How busy prod-web-tg's targets are at that rate (0-1.5)")
    Double utilization;

    @Option(names = "--haproxy-rate", paramLabel = "REQ/S", description = "Legitimate requests per HAProxy host")
    Double haproxyRate;

    @Option(names = "--haproxy-hosts", paramLabel = "N", description = "HAProxy hosts (lb1, lb2, ...)")
    Integer haproxyHosts;

    @Option(names = "--flood-rate", paramLabel = "REQ/S", description = "ping-flood: what the client sends over IPv4")
    Double floodRate;

    @Option(names = "--noise", paramLabel = "F", description = "Rate of harmless blips relative to normal (0 = none)")
    Double noise;

    @Option(names = "--topic", paramLabel = "SOURCE=NAME",
            description = "Topic for a source (alb, alb-health, haproxy, health, config); the default topic names otherwise")
    Map<String, String> topics = new LinkedHashMap<>();

    @Option(names = "--producer-property", paramLabel = "KEY=VALUE", description = "Kafka producer setting (repeatable)")
    Map<String, String> producerProperties = new LinkedHashMap<>();

    @Override
    public Integer call() throws Exception {
        PrintStream err = System.err;
        if (list) {
            for (Scenario s : Scenario.values()) {
                System.out.println(s.id() + (s.aliases().isEmpty() ? "" : " (alias " + String.join(", ", s.aliases()) + ")"));
                System.out.println("  " + s.description());
                System.out.println("  expects: " + s.expectations(s.defaults()).stream().map(e -> e.type() + " within "
                        + Durations.human(e.within())).toList());
                System.out.println("  real incident: " + s.realWorld());
                System.out.println("  defaults: " + s.defaults().describe());
            }
            return 0;
        }
        if (scenario == null) {
            throw new UsageException("--scenario is required (or --list)");
        }
        int targetsChosen = (bootstrapServers != null ? 1 : 0) + (out != null ? 1 : 0) + (replay ? 1 : 0);
        if (targetsChosen != 1) {
            throw new UsageException("give exactly one of --bootstrap-servers, --out, --replay");
        }
        Scenario s;
        try {
            s = Scenario.byName(scenario);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        ScenarioParams params = params(s, bootstrapServers != null);
        err.println("hcwatch simulate " + s.id() + ": " + params.describe());
        if (replay) {
            return replay(s, params);
        }
        if (out != null) {
            return write(s, params);
        }
        return produce(s, params);
    }

    private int replay(Scenario s, ScenarioParams params) {
        ScenarioReplay.Result result = ScenarioReplay.run(s, params, Settings.defaults(), t -> { }, aws);
        PrintStream stdout = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, StandardCharsets.UTF_8);
        for (Alert a : result.alerts()) {
            stdout.println(AlertJson.toJson(a));
        }
        stdout.flush();
        ScenarioVerdict verdict = ScenarioVerdict.of(result);
        System.err.printf("%d records in %.1fs; %d alert notifications%n", result.totalRecords(), result.wallMillis() / 1000.0,
                result.alerts().size());
        verdict.detections().values().forEach(d -> System.err.println("  detected " + d.expected().type() + " "
                + Durations.human(d.afterOnset()) + " after the onset"));
        verdict.problems().forEach(p -> System.err.println("  PROBLEM " + p));
        System.err.println(verdict.passed() ? "verdict: as expected" : "verdict: NOT as expected");
        return verdict.passed() ? 0 : 1;
    }

    private int write(Scenario s, ScenarioParams params) {
        long started = System.nanoTime();
        if (aws) {
            return writeAws(s, params, started);
        }
        try (TelemetryFiles files = new TelemetryFiles(out, gzip)) {
            Simulation.of(s, params).run(files);
            files.lines().forEach((source, n) -> System.err.printf("  %-11s %9d lines  %s%n", source.id(), n, files.path(source)));
        } catch (java.io.UncheckedIOException e) {
            throw new UsageException(e.getMessage() + ": " + e.getCause().getMessage());
        }
        System.err.printf("written in %.1fs; replay with: ./hcwatch replay --alb %s --alb-health %s --haproxy %s --health %s --config %s%n",
                (System.nanoTime() - started) / 1e9, file(Source.ALB), file(Source.ALB_HEALTH), file(Source.HAPROXY),
                file(Source.HEALTH), file(Source.CONFIG));
        return 0;
    }

    /** The collector's records and HAProxy's lines as files, the ALB logs as S3 objects under {@code out/s3}. */
    private int writeAws(Scenario s, ScenarioParams params, long started) {
        AwsDelivery delivery = new AwsDelivery(params.zones());
        try (TelemetryFiles files = new TelemetryFiles(out, gzip)) {
            Simulation.ofAws(s, params).run(t -> {
                delivery.accept(t);
                if (t.source() != Source.ALB && t.source() != Source.ALB_HEALTH) {
                    files.accept(t);
                }
            });
            delivery.writeObjects(out.resolve("s3"));
            files.lines().forEach((source, n) -> System.err.printf("  %-11s %9d lines  %s%n", source.id(), n, files.path(source)));
        } catch (java.io.UncheckedIOException e) {
            throw new UsageException(e.getMessage() + ": " + e.getCause().getMessage());
        }
        for (AwsDelivery.LogObject o : delivery.objects()) {
            System.err.printf("  %-11s %9d lines  %s (delivered %s)%n", o.source().id(), o.lines().size(),
                    out.resolve("s3").resolve(o.key()), Instant.ofEpochMilli(o.deliverAt()));
        }
        System.err.printf("written in %.1fs: %d S3 objects; the stream app needs window.source-delay=alb=%dms,alb-health=%dms"
                + " for them%n", (System.nanoTime() - started) / 1e9, delivery.objects().size(),
                AwsDelivery.longestDelayMillis(params.zones()), AwsDelivery.longestDelayMillis(params.zones()));
        return 0;
    }

    private Path file(Source source) {
        return out.resolve(TelemetryFiles.fileName(source, gzip));
    }

    private int produce(Scenario s, ScenarioParams params) throws InterruptedException {
        Topics t = Topics.defaults();
        for (Map.Entry<String, String> e : topics.entrySet()) {
            t = t.withInput(source(e.getKey()), e.getValue());
        }
        Map<String, Object> overrides = new LinkedHashMap<>(producerProperties);
        Simulation simulation = aws ? Simulation.ofAws(s, params) : Simulation.of(s, params);
        List<AwsDelivery.Delivery> deliveries = null;
        if (aws) {
            AwsDelivery delivery = new AwsDelivery(params.zones());
            simulation.run(delivery);
            deliveries = delivery.deliveries();
            System.err.printf("  %d S3 objects; the stream app needs window.source-delay=alb=%dms,alb-health=%dms for them%n",
                    delivery.objects().size(), AwsDelivery.longestDelayMillis(params.zones()),
                    AwsDelivery.longestDelayMillis(params.zones()));
        }
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch finished = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stop.set(true);
            try {
                finished.await();
            } catch (InterruptedException ignored) {
                Thread.currentThread().interrupt();
            }
        }, "hcwatch-simulate-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        Thread progress = new Thread(() -> {
            while (!stop.get()) {
                try {
                    Thread.sleep(5_000);
                } catch (InterruptedException e) {
                    return;
                }
                System.err.println("  " + describe(simulation.status(), params));
            }
        }, "hcwatch-simulate-progress");
        progress.setDaemon(true);
        long sent;
        try (TelemetryProducer producer = new TelemetryProducer(bootstrapServers, t, overrides)) {
            progress.start();
            sent = deliveries != null
                    ? producer.produce(deliveries, params.start().toEpochMilli(), speed, stop::get, d -> {
                        if (d.object() != null) {
                            System.err.println("  delivered " + d.object().key() + " (" + d.object().lines().size() + " lines)");
                        }
                    })
                    : producer.produce(simulation, speed, stop::get);
        } finally {
            stop.set(true);
            progress.interrupt();
            finished.countDown();
        }
        System.err.println("produced " + sent + " records to " + bootstrapServers + (speed > 0 ? " at " + speed + "x" : ""));
        return 0;
    }

    static String describe(SimulationStatus status, ScenarioParams params) {
        long sinceOnset = status.simulatedTime() - params.onsetTime().toEpochMilli();
        StringBuilder sb = new StringBuilder();
        sb.append("simulated ").append(Instant.ofEpochMilli(status.simulatedTime()).truncatedTo(ChronoUnit.SECONDS))
                .append(" (onset").append(sinceOnset >= 0 ? "+" : "-").append(Durations.human(Duration.ofMillis(Math.abs(sinceOnset))))
                .append("), ").append(status.records()).append(" records");
        status.groups().forEach(g -> sb.append(", ").append(g.targetGroup()).append(' ').append(g.healthy()).append('/')
                .append(g.registered()).append(" healthy"));
        return sb.toString();
    }

    private ScenarioParams params(Scenario s, boolean live) {
        ScenarioParams p = s.defaults();
        try {
            if (start != null) {
                p = p.withStart(start.equalsIgnoreCase("now") ? Instant.now().truncatedTo(ChronoUnit.SECONDS) : Instant.parse(start));
            } else if (live) {
                // a live stream app judges silence and syslog years on the wall clock: event time should be now
                p = p.withStart(Instant.now().truncatedTo(ChronoUnit.SECONDS));
            }
            if (seed != null) {
                p = p.withSeed(seed);
            }
            Duration d = duration == null ? p.duration() : Setting.parseDuration(duration);
            Duration o = onset == null ? p.onset() : Setting.parseDuration(onset);
            p = p.withTiming(d, o);
            if (zones != null) {
                p = p.withZones(zones);
            }
            if (targetsPerZone != null) {
                p = p.withTargetsPerZone(targetsPerZone);
            }
            if (albRate != null) {
                p = p.withAlbRequestsPerSecond(albRate);
            }
            if (utilization != null) {
                p = p.withUtilization(utilization);
            }
            if (haproxyRate != null) {
                p = p.withHaproxyRequestsPerSecond(haproxyRate);
            }
            if (haproxyHosts != null) {
                p = p.withHaproxyHosts(haproxyHosts);
            }
            if (floodRate != null) {
                p = p.withFloodRequestsPerSecond(floodRate);
            }
            if (noise != null) {
                p = p.withNoise(noise);
            }
        } catch (DateTimeParseException e) {
            throw new UsageException("--start expects an ISO-8601 time like 2026-03-03T14:00:00Z or 'now', got " + start);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        if (speed < 0) {
            throw new UsageException("--speed must not be negative, got " + speed);
        }
        return p;
    }

    private static Source source(String id) {
        for (Source s : Source.values()) {
            if (s.id().equals(id)) {
                return s;
            }
        }
        throw new UsageException("--topic takes alb, alb-health, haproxy, health or config, got " + id);
    }
}
