package io.hcwatch.demo;

import io.hcwatch.app.StreamApp;
import io.hcwatch.app.StreamAppConfig;
import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertStatus;
import io.hcwatch.avro.v1.Incident;
import io.hcwatch.avro.v1.IncidentChange;
import io.hcwatch.avro.v1.IncidentMember;
import io.hcwatch.incident.CausalRank;
import io.hcwatch.incident.IncidentScope;
import io.hcwatch.kafka.EmbeddedKafkaBroker;
import io.hcwatch.registry.InMemorySchemaRegistry;
import io.hcwatch.registry.SchemaRegistryServer;
import io.hcwatch.simulate.AwsDelivery;
import io.hcwatch.simulate.Scenario;
import io.hcwatch.simulate.ScenarioParams;
import io.hcwatch.simulate.Simulation;
import io.hcwatch.simulate.SimulationStatus;
import io.hcwatch.simulate.TelemetryProducer;
import io.hcwatch.sink.SinkApp;
import io.hcwatch.topology.Source;
import io.hcwatch.topology.Topics;
import io.micrometer.core.instrument.Counter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * {@code ./hcwatch demo}: the production path on one machine. A real KRaft broker and an HTTP
 * schema registry in this JVM, the stream app and the alert sink as in production, and a scenario
 * produced through Kafka in accelerated time; alerts are shown as the sink delivers them.
 *
 * <p>Event time runs {@code speed} times faster than the wall clock here, so the stream app's
 * wall-clock silence detection (which assumes event time keeps pace with the wall clock) is
 * switched off: it would read a pause of the producer as minutes of silence.
 */
public final class Demo {

    /** What to run and where to show it. */
    public record Options(Scenario scenario, ScenarioParams params, double speed, PrintStream out, boolean color, boolean live,
                          Map<String, String> environment) {

        public static Options of(Scenario scenario, PrintStream out, boolean color, boolean live) {
            return new Options(scenario, scenario.demoParams(), scenario.demoSpeed(), out, color, live, System.getenv());
        }

        public Options withParams(ScenarioParams p) {
            return new Options(scenario, p, speed, out, color, live, environment);
        }

        public Options withSpeed(double s) {
            return new Options(scenario, params, s, out, color, live, environment);
        }
    }

    /** What happened: the alerts the sink delivered, records produced, and how long it all took. */
    /** @param incidents the incident pages on the incidents topic at the end, in topic order */
    public record Report(List<Alert> alerts, List<Incident> incidents, long produced, long startupMillis, long produceMillis,
                         long totalMillis, boolean interrupted) {

        public List<Alert> firing(String type) {
            return alerts.stream().filter(a -> a.getType().equals(type) && a.getStatus() == AlertStatus.firing).toList();
        }
    }

    private static final String ALERTS_DLQ = "alerts-dlq";

    private final Options options;
    private final Console console;
    /** Simulated time of the latest delivery on the AWS path (generated in advance, so the simulation's own clock is at its end). */
    private final java.util.concurrent.atomic.AtomicLong deliveredAt = new java.util.concurrent.atomic.AtomicLong(Long.MIN_VALUE);
    /** Where the run's broker and registry are, once started: the summary reads the incidents from there. */
    private String bootstrap;
    private String registryUrl;
    private Duration simulated;

    public Demo(Options options) {
        this.options = options;
        this.console = new Console(options.out(), options.color(), options.live());
    }

    /** Runs the demo to the end of the scenario, or until {@code stop} says so; everything started is stopped again. */
    public Report run(BooleanSupplier stop) {
        long started = System.nanoTime();
        Scenario scenario = options.scenario();
        boolean aws = scenario.demoThroughAws();
        long sourceDelay = AwsDelivery.longestDelayMillis(options.params().zones());
        // the stream app waits for ALB's objects up to their delay: simulate that much longer, so it judges the incident
        ScenarioParams params = aws ? options.params().withTiming(options.params().duration().plusMillis(sourceDelay),
                options.params().onset()) : options.params();
        simulated = params.duration();
        banner(scenario, params);
        Deque<AutoCloseable> resources = new ArrayDeque<>();
        AlertFeed feed = new AlertFeed(console, params.onsetTime().toEpochMilli());
        long startup = 0;
        long produceMillis = 0;
        long produced = 0;
        Report report = null;
        try {
            long t = System.nanoTime();
            // the scenario's event times lie in the past: time-based retention would delete them as they arrive
            EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(Map.of("log.retention.ms", "-1"));
            resources.push(broker);
            Topics topics = Topics.defaults();
            List<String> names = new ArrayList<>();
            for (Source s : Source.values()) {
                if (s != Source.CONFIG) {
                    names.add(topics.input(s));
                }
            }
            names.addAll(List.of(topics.alerts(), topics.incidents(), topics.deadLetters(), ALERTS_DLQ));
            broker.createTopics(1, names, Map.of("retention.ms", "-1"));
            broker.createTopics(1, List.of(topics.input(Source.CONFIG)), Map.of("cleanup.policy", "compact"));
            console.step("Kafka (KRaft, in this JVM) on " + broker.bootstrapServers() + "; topics " + String.join(", ", names)
                    + ", " + topics.input(Source.CONFIG) + " (compacted)", millisSince(t));

            t = System.nanoTime();
            SchemaRegistryServer registry = new SchemaRegistryServer(new InMemorySchemaRegistry()).start();
            resources.push(registry);
            console.step("Schema registry (in memory) at " + registry.url(), millisSince(t));

            t = System.nanoTime();
            Path stateDir = Files.createTempDirectory("hcwatch-demo-state-");
            resources.push(() -> deleteQuietly(stateDir));
            Properties appProperties = streamAppProperties(broker, registry, stateDir);
            if (aws) {
                appProperties.setProperty("detect.window.source-delay", "alb=" + sourceDelay + "ms,alb-health=" + sourceDelay + "ms");
            }
            StreamApp app = new StreamApp(StreamAppConfig.from(appProperties));
            resources.push(app);
            app.start();
            await(() -> app.isReady() || stop.getAsBoolean(), Duration.ofSeconds(120), "the stream app to reach RUNNING");
            console.step("Stream app RUNNING; metrics at http://127.0.0.1:" + app.metricsPort() + "/metrics", millisSince(t));

            t = System.nanoTime();
            boolean pagerDuty = options.environment().getOrDefault("PAGERDUTY_ROUTING_KEY", "").isBlank() == false;
            // the console shows every alert as it fires; PagerDuty gets the incidents, one per story
            SinkApp sink = new SinkApp(feedSinkProperties(broker, registry), feed.stream());
            resources.push(sink);
            sink.start();
            await(() -> sink.isReady() || stop.getAsBoolean(), Duration.ofSeconds(60), "the alert sink to start consuming");
            if (pagerDuty) {
                SinkApp pager = new SinkApp(pagerProperties(broker, registry));
                resources.push(pager);
                pager.start();
                await(() -> pager.isReady() || stop.getAsBoolean(), Duration.ofSeconds(60), "the incident sink to start consuming");
            }
            console.step("Alert sink: alerts to stdout" + (pagerDuty ? ", incidents to PagerDuty (PAGERDUTY_ROUTING_KEY is set)"
                    : "; set PAGERDUTY_ROUTING_KEY to page PagerDuty with the incidents too"), millisSince(t));
            bootstrap = broker.bootstrapServers();
            registryUrl = registry.url();
            startup = millisSince(started);

            console.line("");
            console.heading(String.format(Locale.ROOT, "Producing %s of %s at %sx through Kafka; alerts as the sink delivers them:",
                    Console.human(params.duration()), scenario.id(), trim(options.speed())));
            console.note(String.format(Locale.ROOT, "%9s  %-8s  %-8s  %s", "incident", "(UTC)", "severity", "alert  scope"));
            Simulation simulation = aws ? Simulation.ofAws(scenario, params) : Simulation.of(scenario, params);
            List<AwsDelivery.Delivery> deliveries = aws ? awsDeliveries(simulation, params, sourceDelay) : null;
            t = System.nanoTime();
            AtomicBoolean producing = new AtomicBoolean(true);
            try (TelemetryProducer producer = new TelemetryProducer(broker.bootstrapServers(), topics, Map.of())) {
                Thread progress = progress(simulation, producer, app, producing);
                try {
                    produced = aws
                            ? producer.produce(deliveries, params.start().toEpochMilli(), options.speed(), stop, this::delivered)
                            : producer.produce(simulation, options.speed(), stop);
                } finally {
                    producing.set(false);
                    progress.interrupt();
                    progress.join(2_000);
                }
            }
            produceMillis = millisSince(t);
            console.endStatus();
            if (!stop.getAsBoolean()) {
                long total = produced;
                console.note(String.format(Locale.ROOT, "  produced %,d records in %s; waiting for the last alerts...", produced,
                        Console.seconds(produceMillis)));
                awaitProgress(() -> processed(app), total, stop, Duration.ofSeconds(30));
                // the last alerts are still on their way (repartition, monitors, the alerts topic, the sink)
                long read = System.nanoTime();
                await(() -> System.nanoTime() - Math.max(read, feed.lastAlertAt()) > 3_000_000_000L || stop.getAsBoolean(),
                        Duration.ofSeconds(30), "the alerts to settle");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } finally {
            console.endStatus();
            List<Incident> incidents = List.of();
            if (bootstrap != null) {
                try {
                    incidents = IncidentReader.readAll(bootstrap, registryUrl, Topics.defaults().incidents(), Duration.ofSeconds(10));
                } catch (RuntimeException e) {
                    console.note("  (could not read the incidents topic: " + e.getMessage() + ")");
                }
            }
            report = new Report(feed.alerts(), incidents, produced, startup, produceMillis, millisSince(started),
                    stop.getAsBoolean());
            summary(report);
            closeAll(resources);
            console.note(String.format(Locale.ROOT, "Stopped everything; %s in all.", Console.seconds(millisSince(started))));
        }
        return report;
    }

    /**
     * The scenario generated in advance and cut up as AWS delivers it; says what the demo does
     * differently on this path.
     */
    private List<AwsDelivery.Delivery> awsDeliveries(Simulation simulation, ScenarioParams params, long sourceDelay) {
        AwsDelivery delivery = new AwsDelivery(params.zones());
        simulation.run(delivery);
        List<AwsDelivery.LogObject> objects = delivery.objects();
        console.line("  The AWS path: `collect alb` publishes each target's state, reason code and zone every 10 s poll"
                + " (health-check-results) and the target groups' settings with their target→zone map (lb-config); ALB"
                + " writes every check and request to S3, one gzip object per node (" + params.zones() + ") and 5 minutes,");
        console.line(String.format(Locale.ROOT, "  delivered %s to %s after its period, which `collect alb-logs` produces"
                        + " line by line (%d objects). The stream app waits %s for them (window.source-delay), so its"
                        + " alerts trail the incident by that much of simulated time.",
                Console.human(Duration.ofMillis(AwsDelivery.FIRST_LAG_MS)),
                Console.human(Duration.ofMillis(AwsDelivery.FIRST_LAG_MS + (params.zones() - 1) * AwsDelivery.NODE_SPREAD_MS)),
                objects.size(), Console.human(Duration.ofMillis(sourceDelay))));
        console.line("");
        return delivery.deliveries();
    }

    /** An S3 object reached Kafka: one line in the demo's output. */
    private void delivered(AwsDelivery.Delivery d) {
        deliveredAt.set(d.at());
        if (d.object() != null) {
            AwsDelivery.LogObject o = d.object();
            String key = o.key();
            console.note(String.format(Locale.ROOT, "  %s  S3 object → %-22s %,6d lines  …%s",
                    Console.clock(java.time.Instant.ofEpochMilli(d.at())), o.source() == Source.ALB ? "alb-access-logs"
                            : "alb-health-check-logs", o.lines().size(), key.substring(key.lastIndexOf('/'))));
        }
    }

    private void banner(Scenario scenario, ScenarioParams params) {
        console.heading("hcwatch demo: " + scenario.id());
        console.line("  " + scenario.description());
        console.line("  In real life: " + scenario.realWorld() + ".");
        console.note("  " + params.describe() + "; " + trim(options.speed()) + "x");
        console.line("");
    }

    private Properties streamAppProperties(EmbeddedKafkaBroker broker, SchemaRegistryServer registry, Path stateDir) {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", broker.bootstrapServers());
        p.setProperty("schema.registry.url", registry.url());
        p.setProperty("application.id", "hcwatch-demo");
        p.setProperty("metrics.host", "127.0.0.1");
        p.setProperty("metrics.port", "0");
        p.setProperty("state.dir", stateDir.toString());
        // event time runs faster than the wall clock: wall-clock silence would misread it
        p.setProperty("detect.silence.enabled", "false");
        p.setProperty("streams.num.stream.threads", "1");
        return p;
    }

    /** The sink that shows every alert on the console (deliver=alerts, stdout). */
    private static Properties feedSinkProperties(EmbeddedKafkaBroker broker, SchemaRegistryServer registry) {
        Properties p = sinkProperties(broker, registry, "hcwatch-demo-sink");
        p.setProperty("deliver", "alerts");
        p.setProperty("sinks", "stdout");
        return p;
    }

    /** The sink that pages PagerDuty with the incidents, as production does by default. */
    private static Properties pagerProperties(EmbeddedKafkaBroker broker, SchemaRegistryServer registry) {
        Properties p = sinkProperties(broker, registry, "hcwatch-demo-pager");
        p.setProperty("deliver", "incidents");
        p.setProperty("sinks", "pagerduty");
        return p;
    }

    private static Properties sinkProperties(EmbeddedKafkaBroker broker, SchemaRegistryServer registry, String group) {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", broker.bootstrapServers());
        p.setProperty("schema.registry.url", registry.url());
        p.setProperty("group.id", group);
        p.setProperty("dlq.topic", ALERTS_DLQ);
        p.setProperty("metrics.port", "-1");
        p.setProperty("shutdown.grace.ms", "2000");
        return p;
    }

    private Thread progress(Simulation simulation, TelemetryProducer producer, StreamApp app, AtomicBoolean producing) {
        ScenarioParams params = options.params();
        Thread thread = new Thread(() -> {
            long lastLine = System.nanoTime();
            while (producing.get()) {
                long delivered = deliveredAt.get();
                console.status(delivered == Long.MIN_VALUE ? status(simulation.status(), producer.sent(), processed(app), params)
                        : String.format(Locale.ROOT, "  sim %s (incident %s) · %,d sent · %,d read",
                                Console.clock(java.time.Instant.ofEpochMilli(delivered)),
                                Console.signed(Duration.ofMillis(delivered - params.onsetTime().toEpochMilli())),
                                producer.sent(), processed(app)));
                if (!console.live() && System.nanoTime() - lastLine > 10_000_000_000L) {
                    console.statusLine();
                    lastLine = System.nanoTime();
                }
                try {
                    Thread.sleep(250);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "hcwatch-demo-progress");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    static String status(SimulationStatus s, long produced, long processed, ScenarioParams params) {
        Duration sinceOnset = Duration.ofMillis(s.simulatedTime() - params.onsetTime().toEpochMilli());
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "  sim %s (incident %s) · %,d sent · %,d read · ",
                Console.clock(java.time.Instant.ofEpochMilli(s.simulatedTime())), Console.signed(sinceOnset), produced, processed));
        SimulationStatus.GroupHealth web = s.group("prod-web-tg");
        if (web != null) {
            sb.append("healthy ").append(web.healthy()).append('/').append(web.registered());
        }
        s.frontends().stream().filter(f -> f.frontend().equals("hc-ping")).max(Comparator.comparingInt(
                SimulationStatus.FrontendLoad::connections)).ifPresent(f -> sb.append(" · ").append(f.host()).append("/hc-ping ")
                .append(f.connections()).append('/').append(f.maxconn()));
        return sb.toString();
    }

    /** Records the stream app has parsed, rejected or skipped, over every source. */
    private static long processed(StreamApp app) {
        return Math.round(app.registry().find("hcwatch.records").counters().stream().mapToDouble(Counter::count).sum());
    }

    /** One row per alert (type and scope): when it first fired after the onset, how bad it got, how often it came and went. */
    private void summary(Report report) {
        long onset = options.params().onsetTime().toEpochMilli();
        Map<String, List<Alert>> byKey = new LinkedHashMap<>();
        for (Alert a : report.alerts()) {
            byKey.computeIfAbsent(a.getDedupKey(), k -> new ArrayList<>()).add(a);
        }
        console.line("");
        console.heading(String.format(Locale.ROOT, "Summary: %s, %,d records, %s simulated in %s at %sx (start-up %s, %s in all)%s",
                options.scenario().id(), report.produced(), Console.human(simulated),
                Console.seconds(report.produceMillis()), trim(options.speed()), Console.seconds(report.startupMillis()),
                Console.seconds(report.totalMillis()), report.interrupted() ? ", interrupted" : ""));
        String format = "  %-24s %-36s %-9s %-11s %-12s %s";
        console.line(String.format(Locale.ROOT, format, "alert", "scope", "worst", "first (UTC)", "after onset", "episodes"));
        if (byKey.isEmpty()) {
            console.line("  (no alerts)");
        }
        for (List<Alert> notes : byKey.values()) {
            Alert first = notes.get(0);
            String worst = worst(notes);
            long episodes = notes.stream().map(Alert::getAlertId).distinct().count();
            boolean open = notes.get(notes.size() - 1).getStatus() == AlertStatus.firing;
            console.line(String.format(Locale.ROOT, format, first.getType(), truncate(Console.scope(first.getScope()), 36), worst,
                    Console.clock(first.getEventTime()),
                    Console.signed(Duration.ofMillis(first.getEventTime().toEpochMilli() - onset)),
                    episodes + (open ? ", firing at the end" : ", resolved")));
        }
        incidents(report.incidents(), byKey, onset);
        console.line(String.format(Locale.ROOT, "  %-24s %s", "in real life", options.scenario().realWorld()));
    }

    /**
     * One block per incident, as PagerDuty gets it: its key, headline, severity, pages and outcome,
     * then its members (the timeline) with their role in the story. An open incident's last page
     * carries the members it had then (a member that changes neither headline nor severity is not
     * paged; it goes with the resolve): the alerts of its scope that joined since are listed too,
     * marked as not paged yet, so the story is whole.
     */
    private void incidents(List<Incident> pages, Map<String, List<Alert>> alertsByKey, long onset) {
        Map<String, Incident> last = new LinkedHashMap<>();
        Map<String, Integer> count = new LinkedHashMap<>();
        for (Incident i : pages) {
            last.put(i.getIncidentId(), i);
            count.merge(i.getIncidentId(), 1, Integer::sum);
        }
        console.line("");
        console.line(String.format(Locale.ROOT, "  Incidents (what PagerDuty gets with the sink's default deliver=incidents): %d, %d pages",
                last.size(), pages.size()));
        if (last.isEmpty()) {
            console.line("  (no incidents)");
        }
        String format = "    %-10s %-40s %-9s %-12s %s";
        for (Incident i : last.values()) {
            boolean resolved = i.getChange() == IncidentChange.resolved;
            console.line(String.format(Locale.ROOT, "  %s  headline %s, %s, opened %s, %d pages, %s", i.getIncidentKey(),
                    i.getHeadlineType(), i.getSeverity(), Console.signed(Duration.ofMillis(i.getOpenedAt().toEpochMilli() - onset)),
                    count.get(i.getIncidentId()), resolved ? "resolved" : "open at the end"));
            console.line(String.format(Locale.ROOT, format, "role", "member", "worst", "first fired", "resolved"));
            Set<String> paged = new HashSet<>();
            for (IncidentMember m : i.getMembers()) {
                paged.add(m.getDedupKey());
                console.line(String.format(Locale.ROOT, format, m.getRole(), truncate(m.getDedupKey(), 40), m.getSeverity(),
                        Console.signed(Duration.ofMillis(m.getFirstFired().toEpochMilli() - onset)),
                        m.getResolved() == null ? "firing" : Console.signed(Duration.ofMillis(m.getResolved().toEpochMilli() - onset))));
            }
            if (!resolved) {
                for (List<Alert> notes : alertsByKey.values()) {
                    Alert first = notes.get(0);
                    if (paged.contains(first.getDedupKey()) || !IncidentScope.of(first).key().equals(i.getIncidentKey())
                            || first.getEventTime().isBefore(i.getOpenedAt())) {
                        continue;
                    }
                    Alert latest = notes.get(notes.size() - 1);
                    String worst = worst(notes);
                    console.line(String.format(Locale.ROOT, format, CausalRank.role(CausalRank.rank(first)).id(),
                            truncate(first.getDedupKey(), 40), worst,
                            Console.signed(Duration.ofMillis(first.getEventTime().toEpochMilli() - onset)),
                            (latest.getStatus() == AlertStatus.firing ? "firing" : Console.signed(Duration.ofMillis(
                                    latest.getEventTime().toEpochMilli() - onset))) + " (not paged yet: goes with the resolve)"));
                }
            }
        }
    }

    /** The highest severity an alert's notifications fired with (its first one's when none fired). */
    private static String worst(List<Alert> notes) {
        return notes.stream().filter(n -> n.getStatus() == AlertStatus.firing).map(Alert::getSeverity)
                .min(Comparator.naturalOrder()).map(Enum::name).orElse(notes.get(0).getSeverity().name());
    }

    private static String truncate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }

    private void closeAll(Deque<AutoCloseable> resources) {
        while (!resources.isEmpty()) {
            try {
                resources.pop().close();
            } catch (Exception e) {
                console.note("  (while stopping: " + e + ")");
            }
        }
    }

    private static void await(BooleanSupplier condition, Duration timeout, String what) throws InterruptedException {
        await(condition, timeout, () -> what);
    }

    private static void await(BooleanSupplier condition, Duration timeout, java.util.function.Supplier<String> what)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("gave up waiting " + timeout.toSeconds() + "s for " + what.get());
            }
            Thread.sleep(100);
        }
    }

    /** Waits until {@code count} reaches {@code target}, for as long as it keeps moving (a slow machine is not stuck). */
    private static void awaitProgress(java.util.function.LongSupplier count, long target, BooleanSupplier stop, Duration stall)
            throws InterruptedException {
        long last = -1;
        long movedAt = System.nanoTime();
        while (!stop.getAsBoolean()) {
            long now = count.getAsLong();
            if (now >= target) {
                return;
            }
            if (now != last) {
                last = now;
                movedAt = System.nanoTime();
            } else if (System.nanoTime() - movedAt > stall.toNanos()) {
                throw new IllegalStateException("the stream app stopped reading at " + now + " of " + target + " records");
            }
            Thread.sleep(100);
        }
    }

    private static long millisSince(long nanos) {
        return (System.nanoTime() - nanos) / 1_000_000;
    }

    private static String trim(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory left behind is harmless
        }
    }
}
