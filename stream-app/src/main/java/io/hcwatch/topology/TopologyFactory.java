package io.hcwatch.topology;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.avro.v1.Incident;
import io.hcwatch.config.Settings;
import io.hcwatch.deadletter.DeadLetterBounds;
import io.hcwatch.detect.feed.FeedState;
import io.hcwatch.detect.fleet.FleetState;
import io.hcwatch.detect.flood.FloodState;
import io.hcwatch.detect.slots.HostState;
import io.hcwatch.incident.IncidentBook;
import io.hcwatch.incident.IncidentScope;
import io.hcwatch.serde.SpecificAvroSerde;
import io.hcwatch.topology.Routed.Destination;
import io.hcwatch.topology.state.JsonStateCodec;
import io.hcwatch.topology.state.MonitoredCodec;
import io.hcwatch.topology.state.PartedMonitoredCodec;
import io.hcwatch.topology.state.StateCodec;
import io.hcwatch.topology.state.StateMigrations;
import io.hcwatch.topology.state.WriteBehindStoreBuilder;
import io.hcwatch.traffic.TrafficCombiner;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
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
import org.apache.kafka.streams.kstream.ValueMapper;

/**
 * Builds hcwatch's Kafka Streams topology. Per input topic: decode, dead-letter what does not
 * decode, sum access logs per second; then one repartition per monitor (target groups, HAProxy
 * hosts, client scopes, feeds) and the monitors, whose alerts go to the alerts topic keyed by
 * dedup_key, and, re-keyed by incident, to the incident books, whose pages go to the incidents topic.
 * Every processor, store and internal topic is named, so names stay stable across versions and the
 * topology can run with {@code ensure.explicit.internal.resource.naming}.
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
        return build(new Stages(config));
    }

    /** The topology over the given processors (tests inject a detection there). */
    public static Topology build(Stages stages) {
        return build(stages.config(), stages).build(builderProperties());
    }

    static StreamsBuilder build(TopologyConfig config, Stages stages) {
        StreamsBuilder builder = new StreamsBuilder(new org.apache.kafka.streams.TopologyConfig(new StreamsConfig(builderProperties())));
        addStores(builder, config.settings());
        SpecificAvroSerde<DeadLetter> deadLetterSerde = SpecificAvroSerde.forValues(DeadLetter.class, config.serdeConfig());
        SpecificAvroSerde<Alert> alertSerde = SpecificAvroSerde.forValues(Alert.class, config.serdeConfig());

        // a dead letter the topic refuses would fail the producer and replace the stream thread, which writes it again
        int deadLetterMaxBytes = config.deadLetterMaxBytes();
        ValueMapper<DeadLetter, DeadLetter> fitting = letter -> DeadLetterBounds.fitting(letter, deadLetterMaxBytes);
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
                    .mapValues(fitting, Named.as("fit-dead-letters-" + s.id()))
                    .to(config.topics().deadLetters(), Produced.with(Serdes.String(), deadLetterSerde)
                            .withName("write-dead-letters-" + s.id()));
            for (Destination d : new Destination[] {Destination.FLEET, Destination.HOST, Destination.FLOOD, Destination.FEED}) {
                String name = d.name().toLowerCase(Locale.ROOT);
                KStream<String, Envelope> envelopesOut = branches.get(prefix + name)
                        .mapValues(Routed::envelope, Named.as("envelope-" + s.id() + "-" + name));
                toMonitors.merge(d, envelopesOut, (a, b) -> a.merge(b, Named.as("merge-" + name + "-" + s.id())));
            }
        }
        EnvelopeSerde envelopes = new EnvelopeSerde();
        // One task runs all four monitors (their outputs merge): each keeps its own clock over the
        // upstreams that pace it (MonitorClock), not the task's stream time, so one monitor's lagging
        // input is not skipped. A task each instead measured ~25% more CPU per record on the live path.
        KStream<String, MonitorOutput> monitorOut = repartition(toMonitors.get(Destination.FLEET), "fleet", envelopes)
                .process(stages::fleet, Named.as("monitor-fleet"), FLEET_STORE, MonitorProcessor.clockStore(FLEET_STORE))
                .merge(repartition(toMonitors.get(Destination.HOST), "host", envelopes)
                        .process(stages::host, Named.as("monitor-host"), HOST_STORE, MonitorProcessor.clockStore(HOST_STORE)),
                        Named.as("merge-alerts-host"))
                .merge(repartition(toMonitors.get(Destination.FLOOD), "flood", envelopes)
                        .process(stages::flood, Named.as("monitor-flood"), FLOOD_STORE, MonitorProcessor.clockStore(FLOOD_STORE)),
                        Named.as("merge-alerts-flood"))
                .merge(repartition(toMonitors.get(Destination.FEED), "feed", envelopes)
                        .process(stages::feed, Named.as("monitor-feed"), FEED_STORE, MonitorProcessor.clockStore(FEED_STORE)),
                        Named.as("merge-alerts-feed"));
        KStream<String, Alert> alerts = monitorOut.flatMapValues(MonitorOutput::alerts, Named.as("monitor-alerts"));
        alerts.to(config.topics().alerts(), Produced.with(Serdes.String(), alertSerde).withName("write-alerts"));
        // every member of one incident to one task: an incident's scope spans monitors (a frontend's hosts and its floods)
        alerts.selectKey((k, a) -> IncidentScope.of(a).key(), Named.as("incident-key"))
                .repartition(Repartitioned.<String, Alert>as("incident-alerts").withKeySerde(Serdes.String()).withValueSerde(alertSerde))
                .process(IncidentProcessor::new, Named.as("incidents"), IncidentProcessor.STORE)
                .to(config.topics().incidents(), Produced.with(Serdes.String(), SpecificAvroSerde.forValues(Incident.class,
                        config.serdeConfig())).withName("write-incidents"));
        // what a monitor failed on, so a bad key is reported instead of replacing the stream thread
        monitorOut.flatMapValues(MonitorOutput::deadLetters, Named.as("monitor-dead-letters"))
                .mapValues(fitting, Named.as("fit-dead-letters-monitors"))
                .to(config.topics().deadLetters(), Produced.with(Serdes.String(), deadLetterSerde)
                        .withName("write-dead-letters-monitors"));
        return builder;
    }

    /** Every store, written behind to a changelogged in-memory store: pending ones per source, each monitor's and its clock's. */
    private static void addStores(StreamsBuilder builder, Settings settings) {
        for (Source s : Source.values()) {
            if (s.holdsPending()) {
                builder.addStateStore(WriteBehindStoreBuilder.inMemory(pendingStore(s), pendingCodec(settings)));
            }
        }
        builder.addStateStore(WriteBehindStoreBuilder.inMemory(FLEET_STORE, fleetStoreCodec()));
        builder.addStateStore(WriteBehindStoreBuilder.inMemory(HOST_STORE, hostStoreCodec()));
        builder.addStateStore(WriteBehindStoreBuilder.inMemory(FLOOD_STORE, floodStoreCodec()));
        builder.addStateStore(WriteBehindStoreBuilder.inMemory(FEED_STORE, feedCodec()));
        builder.addStateStore(WriteBehindStoreBuilder.inMemory(IncidentProcessor.STORE, incidentCodec()));
        for (String monitorStore : new String[] {FLEET_STORE, HOST_STORE, FLOOD_STORE, FEED_STORE}) {
            builder.addStateStore(WriteBehindStoreBuilder.inMemory(MonitorProcessor.clockStore(monitorStore), clockCodec()));
        }
    }

    /** The codec of a pending store's value: summaries and check batches not yet sent. */
    public static StateCodec<TrafficCombiner> pendingCodec(Settings settings) {
        return new TrafficCombinerCodec(settings.integer("flood.capacity"));
    }

    /** The codec of a monitor's clock store: its header and held records. */
    public static StateCodec<?> clockCodec() {
        return new SavedClock.Codec();
    }

    /** Incident books are plain beans, kept as JSON like detector state. */
    public static StateCodec<IncidentBook> incidentCodec() {
        return new JsonStateCodec<>(IncidentBook.class);
    }

    public static MonitoredCodec<FleetState> fleetCodec() {
        return new MonitoredCodec<>(FleetState.class, StateMigrations::fleetFromV0, s -> { });
    }

    /** How the fleet store keeps a target group: in parts, a commit writing those that changed (layout 3). */
    public static PartedMonitoredCodec<FleetState> fleetStoreCodec() {
        return PartedMonitoredCodec.fleet(fleetCodec());
    }

    public static MonitoredCodec<HostState> hostCodec() {
        return new MonitoredCodec<>(HostState.class, StateMigrations::hostFromV0, s -> { });
    }

    /** How the host store keeps an HAProxy host: in parts, its seconds in chunks (layout 3). */
    public static PartedMonitoredCodec<HostState> hostStoreCodec() {
        return PartedMonitoredCodec.host(hostCodec());
    }

    public static MonitoredCodec<FeedState> feedCodec() {
        return new MonitoredCodec<>(FeedState.class, v0 -> {
            throw new IllegalArgumentException("feed state was versioned from its first release");
        }, s -> { });
    }

    public static MonitoredCodec<FloodState> floodCodec() {
        return new MonitoredCodec<>(FloodState.class, StateMigrations::floodFromV0, FloodState::settle);
    }

    /** How the flood store keeps a client scope: in parts, a second of its window each (layout 3). */
    public static PartedMonitoredCodec<FloodState> floodStoreCodec() {
        return PartedMonitoredCodec.flood(floodCodec());
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
        if (value != null && value.kind() == Envelope.Kind.PROGRESS) {
            Set<Integer> all = new HashSet<>();
            for (int p = 0; p < partitionCount; p++) {
                all.add(p);
            }
            return Optional.of(all);
        }
        return Optional.empty();
    }
}
