package io.hcwatch.topology;

import io.hcwatch.alert.AlertFactory;
import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.config.Settings;
import io.hcwatch.alert.KeyMonitor;
import io.hcwatch.alert.LifecycleSettings;
import io.hcwatch.detect.Detection;
import io.hcwatch.detect.feed.FeedDetection;
import io.hcwatch.detect.feed.FeedState;
import io.hcwatch.detect.feed.GapSettings;
import io.hcwatch.detect.fleet.FleetDetection;
import io.hcwatch.detect.fleet.FleetSettings;
import io.hcwatch.detect.fleet.FleetState;
import io.hcwatch.detect.flood.FloodDetection;
import io.hcwatch.detect.flood.FloodSettings;
import io.hcwatch.detect.flood.FloodState;
import io.hcwatch.detect.slots.HostState;
import io.hcwatch.detect.slots.SlotDetection;
import io.hcwatch.detect.slots.SlotSettings;
import io.hcwatch.metrics.ClockGauges;
import io.hcwatch.metrics.FleetGauges;
import io.hcwatch.traffic.CardinalityLimits;
import io.hcwatch.metrics.PipelineMetrics;
import io.hcwatch.serde.SpecificAvroSerde;
import io.hcwatch.topology.Routed.Destination;
import io.hcwatch.topology.state.MonitoredCodec;
import io.hcwatch.topology.state.StateCodec;
import io.hcwatch.traffic.TrafficCombiner;
import io.hcwatch.topology.state.StateMigrations;
import io.hcwatch.topology.state.WriteBehindStoreBuilder;
import java.time.Duration;
import io.hcwatch.time.TimeSettings;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.Map;
import java.util.Properties;
import java.util.function.UnaryOperator;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;

/**
 * Builds hcwatch's Kafka Streams topology. Per input topic: decode, dead-letter what does not
 * decode, sum access logs per second; then one repartition per monitor (target groups, HAProxy
 * hosts, client scopes) and the monitors, whose alerts go to the alerts topic keyed by
 * dedup_key. Every processor, store and internal topic is named, so names stay stable across
 * versions and the topology can run with {@code ensure.explicit.internal.resource.naming}.
 */
public final class TopologyFactory {

    public static final String FLEET_STORE = "fleet-state";
    public static final String HOST_STORE = "host-state";
    public static final String FLOOD_STORE = "flood-state";
    public static final String FEED_STORE = "feed-state";

    /** The monitors, as metrics and dead letters name them (monitor-&lt;name&gt;). */
    static final List<String> MONITORS = List.of("fleet", "host", "flood", "feed");

    private TopologyFactory() {
    }

    /** The store holding a source's not-yet-sent traffic summaries and health-check batches. */
    public static String pendingStore(Source source) {
        return "pending-" + source.id();
    }

    public static Topology build(TopologyConfig config) {
        return build(config, new Stages(config)).build(builderProperties());
    }

    /** The topology over the given processors (tests inject a detection there). */
    public static Topology build(Stages stages) {
        return build(stages.config, stages).build(builderProperties());
    }

    static StreamsBuilder build(TopologyConfig config, Stages stages) {
        StreamsBuilder builder = new StreamsBuilder(new org.apache.kafka.streams.TopologyConfig(new StreamsConfig(builderProperties())));
        Settings settings = config.settings();
        for (Source s : Source.values()) {
            if (s.holdsPending()) {
                builder.addStateStore(WriteBehindStoreBuilder.inMemory(pendingStore(s), pendingCodec(settings)));
            }
        }
        builder.addStateStore(WriteBehindStoreBuilder.inMemory(FLEET_STORE, fleetCodec()));
        builder.addStateStore(WriteBehindStoreBuilder.inMemory(HOST_STORE, hostCodec()));
        builder.addStateStore(WriteBehindStoreBuilder.inMemory(FLOOD_STORE, floodCodec()));
        builder.addStateStore(WriteBehindStoreBuilder.inMemory(FEED_STORE, feedCodec()));
        for (String monitorStore : new String[] {FLEET_STORE, HOST_STORE, FLOOD_STORE, FEED_STORE}) {
            builder.addStateStore(WriteBehindStoreBuilder.inMemory(MonitorProcessor.clockStore(monitorStore), new SavedClock.Codec()));
        }

        SpecificAvroSerde<DeadLetter> deadLetterSerde = SpecificAvroSerde.forValues(DeadLetter.class, config.serdeConfig());
        SpecificAvroSerde<Alert> alertSerde = SpecificAvroSerde.forValues(Alert.class, config.serdeConfig());
        EnvelopeSerde envelopes = new EnvelopeSerde();

        Map<Destination, KStream<String, Envelope>> toMonitors = new EnumMap<>(Destination.class);
        for (Source s : Source.values()) {
            KStream<byte[], byte[]> raw = builder.stream(config.topics().input(s),
                    Consumed.with(Serdes.ByteArray(), Serdes.ByteArray())
                            .withTimestampExtractor(new SafeTimestampExtractor())
                            .withName("read-" + s.id()));
            KStream<String, Routed> routed = s.holdsPending()
                    ? raw.process(() -> stages.ingest(s), Named.as("ingest-" + s.id()), pendingStore(s))
                    : raw.process(() -> stages.ingest(s), Named.as("ingest-" + s.id()));
            String prefix = "route-" + s.id() + "-";
            Map<String, KStream<String, Routed>> branches = routed.split(Named.as(prefix))
                    .branch((k, v) -> v.destination() == Destination.FLEET, Branched.as("fleet"))
                    .branch((k, v) -> v.destination() == Destination.HOST, Branched.as("host"))
                    .branch((k, v) -> v.destination() == Destination.FLOOD, Branched.as("flood"))
                    .branch((k, v) -> v.destination() == Destination.FEED, Branched.as("feed"))
                    .defaultBranch(Branched.as("dead"));
            branches.get(prefix + "dead")
                    .mapValues(Routed::deadLetter, Named.as("dead-letter-" + s.id()))
                    .to(config.topics().deadLetters(), Produced.with(Serdes.String(), deadLetterSerde)
                            .withName("write-dead-letters-" + s.id()));
            for (Destination d : new Destination[] {Destination.FLEET, Destination.HOST, Destination.FLOOD, Destination.FEED}) {
                String name = d.name().toLowerCase(java.util.Locale.ROOT);
                KStream<String, Envelope> envelopesOut = branches.get(prefix + name)
                        .mapValues(Routed::envelope, Named.as("envelope-" + s.id() + "-" + name));
                toMonitors.merge(d, envelopesOut, (a, b) -> a.merge(b, Named.as("merge-" + name + "-" + s.id())));
            }
        }
        KStream<String, SpecificRecord> fleetAlerts = repartition(toMonitors.get(Destination.FLEET), "fleet", envelopes)
                .process(stages::fleet, Named.as("monitor-fleet"), FLEET_STORE, MonitorProcessor.clockStore(FLEET_STORE));
        KStream<String, SpecificRecord> hostAlerts = repartition(toMonitors.get(Destination.HOST), "host", envelopes)
                .process(stages::host, Named.as("monitor-host"), HOST_STORE, MonitorProcessor.clockStore(HOST_STORE));
        KStream<String, SpecificRecord> floodAlerts = repartition(toMonitors.get(Destination.FLOOD), "flood", envelopes)
                .process(stages::flood, Named.as("monitor-flood"), FLOOD_STORE, MonitorProcessor.clockStore(FLOOD_STORE));
        // One task runs all three monitors (their alert streams merge): each keeps its own clock over the
        // upstreams that pace it (MonitorClock), not the task's stream time, so one monitor's lagging
        // input is not skipped. Three tasks instead measured ~25% more CPU per record on the live path.
        KStream<String, SpecificRecord> feedAlerts = repartition(toMonitors.get(Destination.FEED), "feed", envelopes)
                .process(stages::feed, Named.as("monitor-feed"), FEED_STORE, MonitorProcessor.clockStore(FEED_STORE));
        Map<String, KStream<String, SpecificRecord>> monitorOut = fleetAlerts.merge(hostAlerts, Named.as("merge-alerts-host"))
                .merge(floodAlerts, Named.as("merge-alerts-flood"))
                .merge(feedAlerts, Named.as("merge-alerts-feed"))
                .split(Named.as("monitor-out-"))
                .branch((k, v) -> v instanceof DeadLetter, Branched.as("dead"))
                .defaultBranch(Branched.as("alerts"));
        monitorOut.get("monitor-out-alerts")
                .mapValues(v -> (Alert) v, Named.as("monitor-alerts"))
                .to(config.topics().alerts(), Produced.with(Serdes.String(), alertSerde).withName("write-alerts"));
        // what a monitor failed on, so a bad key is reported instead of replacing the stream thread
        monitorOut.get("monitor-out-dead")
                .mapValues(v -> (DeadLetter) v, Named.as("monitor-dead-letters"))
                .to(config.topics().deadLetters(), Produced.with(Serdes.String(), deadLetterSerde)
                        .withName("write-dead-letters-monitors"));
        return builder;
    }

    /** The codec of a pending store's value: summaries and check batches not yet sent. */
    public static StateCodec<TrafficCombiner> pendingCodec(Settings settings) {
        return new TrafficCombinerCodec(settings.integer("flood.capacity"));
    }

    /** The codec of a monitor's clock store: its header and held records. */
    public static StateCodec<?> clockCodec() {
        return new SavedClock.Codec();
    }

    public static MonitoredCodec<FleetState> fleetCodec() {
        return new MonitoredCodec<>(FleetState.class, StateMigrations::fleetFromV0, s -> { });
    }

    public static MonitoredCodec<HostState> hostCodec() {
        return new MonitoredCodec<>(HostState.class, StateMigrations::hostFromV0, s -> { });
    }

    public static MonitoredCodec<FeedState> feedCodec() {
        return new MonitoredCodec<>(FeedState.class, v0 -> {
            throw new IllegalArgumentException("feed state was versioned from its first release");
        }, s -> { });
    }

    public static MonitoredCodec<FloodState> floodCodec() {
        return new MonitoredCodec<>(FloodState.class, StateMigrations::floodFromV0, FloodState::settle);
    }

    /** Settings the topology is built under: every internal name must be explicit, so a rename is a build error. */
    private static Properties builderProperties() {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "hcwatch");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        p.put(StreamsConfig.ENSURE_EXPLICIT_INTERNAL_RESOURCE_NAMING_CONFIG, true);
        p.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, true);
        return p;
    }

    private static KStream<String, Envelope> repartition(KStream<String, Envelope> in, String name, EnvelopeSerde serde) {
        return in.repartition(Repartitioned.<String, Envelope>as(name).withKeySerde(Serdes.String()).withValueSerde(serde)
                .withStreamPartitioner(TopologyFactory::partitions));
    }

    /**
     * Progress reports go to every partition (each monitor task waits for every upstream); records
     * go where their key hashes, as Kafka Streams would place them.
     */
    static Optional<Set<Integer>> partitions(String topic, String key, Envelope value, int partitionCount) {
        if (value != null && value.isProgress()) {
            Set<Integer> all = new HashSet<>();
            for (int p = 0; p < partitionCount; p++) {
                all.add(p);
            }
            return Optional.of(all);
        }
        return Optional.empty();
    }

    /** Creates the processors; one instance per topology, shared monitors are stateless. */
    public static final class Stages {
        private final TopologyConfig config;
        private final PipelineMetrics metrics;
        private final FleetGauges gauges;
        private final KeyMonitor<FleetState> fleetMonitor;
        private final KeyMonitor<HostState> slotMonitor;
        private final KeyMonitor<FloodState> floodMonitor;
        private final KeyMonitor<FeedState> feedMonitor;
        private final AlertFactory alertFactory;
        private final TimeSettings time;
        private final ClockGauges clockGauges;
        private final HaproxyHosts haproxyHosts = new HaproxyHosts();
        private final SourceLags sourceLags;

        public Stages(TopologyConfig config) {
            this(config, UnaryOperator.identity());
        }

        /** @param fleetDetection wraps the fleet monitor's detection (tests: a detector that fails) */
        public Stages(TopologyConfig config, UnaryOperator<Detection<FleetState>> fleetDetection) {
            this.config = config;
            Settings settings = config.settings();
            this.metrics = new PipelineMetrics(config.meterRegistry()).initialize(
                    java.util.Arrays.stream(Source.values()).map(Source::id).toList(), MONITORS);
            this.gauges = new FleetGauges(config.meterRegistry(), settings.millis("headroom.window"));
            LifecycleSettings lifecycle = LifecycleSettings.from(settings);
            this.time = TimeSettings.from(settings);
            for (String id : time.sourceDelays().keySet()) {
                if (java.util.Arrays.stream(Source.values()).noneMatch(s -> s.id().equals(id))) {
                    throw new IllegalArgumentException("window.source-delay names no source '" + id + "' (sources: "
                            + java.util.Arrays.stream(Source.values()).map(Source::id).toList() + ")");
                }
            }
            long step = time.step().toMillis();
            long idle = settings.millis("state.idle-timeout");
            this.fleetMonitor = new KeyMonitor<>(fleetDetection.apply(new FleetDetection(FleetSettings.from(settings))), lifecycle,
                    step, idle);
            this.slotMonitor = new KeyMonitor<>(new SlotDetection(SlotSettings.from(settings)), lifecycle, step, idle);
            this.floodMonitor = new KeyMonitor<>(new FloodDetection(FloodSettings.from(settings)), lifecycle, step, idle);
            // a feed that stopped is idle by definition: it is never forgotten, or its telemetry_gap would resolve
            this.feedMonitor = new KeyMonitor<>(new FeedDetection(GapSettings.from(settings)), lifecycle, step, Long.MAX_VALUE);
            this.alertFactory = new AlertFactory(lifecycle.runbookBase());
            this.clockGauges = new ClockGauges(config.meterRegistry(), MONITORS,
                    System::currentTimeMillis);
            this.sourceLags = config.liveClock() ? new SourceLags(config.meterRegistry()) : null;
        }

        public IngestProcessor ingest(Source s) {
            Decoder decoder = config.decoders().get(s);
            if (decoder == null) {
                throw new IllegalStateException("no decoder configured for " + s.id());
            }
            IngestSettings settings = new IngestSettings(config.settings().duration("combine.flush-interval"),
                    config.settings().integer("flood.capacity"), config.liveClock() ? time.idleTimeout() : Duration.ZERO,
                    config.liveClock() ? time.delayOf(s.id()) : Duration.ZERO, CardinalityLimits.Limits.from(config.settings()));
            return new IngestProcessor(s, decoder, s.holdsPending() ? pendingStore(s) : null, config.topics().input(s), settings,
                    new IngestServices(metrics, config.inputLag(), haproxyHosts, sourceLags));
        }

        public MonitorProcessor<FleetState> fleet() {
            return new MonitorProcessor<>("fleet", fleetMonitor,
                    (tg, m) -> {
                        if (m == null) {
                            gauges.forgetTargetGroup(tg);
                        } else {
                            gauges.publish(tg, m.state, m.time.clock, m.latest);
                        }
                    }, FLEET_STORE, alertFactory, metrics,
                    clockGauges, time, config.liveClock(), expected(Destination.FLEET));
        }

        public MonitorProcessor<HostState> host() {
            return new MonitorProcessor<>("host", slotMonitor, (host, m) -> {
                if (m == null) {
                    gauges.forgetHost(host);
                } else {
                    gauges.publish(host, m.state, m.time.clock);
                }
            },
                    HOST_STORE, alertFactory, metrics, clockGauges, time, config.liveClock(), expected(Destination.HOST));
        }

        public MonitorProcessor<FloodState> flood() {
            return new MonitorProcessor<>("flood", floodMonitor, (scope, m) -> { }, FLOOD_STORE, alertFactory, metrics,
                    clockGauges, time, config.liveClock(), expected(Destination.FLOOD));
        }

        public MonitorProcessor<FeedState> feed() {
            return new MonitorProcessor<>("feed", feedMonitor, (feed, m) -> { }, FEED_STORE, alertFactory, metrics,
                    clockGauges, time, config.liveClock(), expected(Destination.FEED));
        }

        /** Every input partition that paces {@code monitor}, as the ingest names it ({@code source-partition}). */
        private List<String> expected(Destination monitor) {
            List<String> ids = new java.util.ArrayList<>();
            config.inputPartitions().forEach((source, partitions) -> {
                if (source.paces().contains(monitor)) {
                    for (int p = 0; p < partitions; p++) {
                        ids.add(source.id() + "-" + p);
                    }
                }
            });
            return ids;
        }
    }
}
