package io.hcwatch.replay;

import io.hcwatch.alert.Monitored;
import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.avro.v1.Incident;
import io.hcwatch.topology.IncidentProcessor;
import io.hcwatch.topology.IngestProcessor;
import io.hcwatch.topology.MonitorOutput;
import io.hcwatch.topology.MonitorProcessor;
import io.hcwatch.topology.Routed;
import io.hcwatch.topology.Source;
import io.hcwatch.topology.Stages;
import io.hcwatch.topology.TopologyConfig;
import io.hcwatch.topology.TopologyFactory;
import io.hcwatch.topology.state.MonitoredCodec;
import io.hcwatch.topology.state.ObjectStore;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.streams.processor.api.Record;

/**
 * The topology's own processors, wired as {@link TopologyFactory} wires them but called
 * directly: one partition, no broker, no serialization between stages. Replay runs files
 * through it an order of magnitude faster than TopologyTestDriver, which commits after every
 * record; a test checks both give the same alerts.
 */
public final class ReplayPipeline {

    private final Map<Source, IngestProcessor> ingest = new EnumMap<>(Source.class);
    private final Map<Source, ReplayContext<String, Routed>> ingestContexts = new EnumMap<>(Source.class);
    private final ReplayContext<String, MonitorOutput> fleetContext;
    private final ReplayContext<String, MonitorOutput> hostContext;
    private final ReplayContext<String, MonitorOutput> floodContext;
    private final ReplayContext<String, MonitorOutput> feedContext;
    private final MonitorProcessor<?, ?> fleet;
    private final MonitorProcessor<?, ?> host;
    private final MonitorProcessor<?, ?> flood;
    private final MonitorProcessor<?, ?> feed;
    private final List<ObjectStore<?>> stores = new ArrayList<>();
    private long offset;

    public ReplayPipeline(TopologyConfig config, Consumer<Alert> alerts, Consumer<DeadLetter> deadLetters) {
        this(config, alerts, deadLetters, ReplayStores.DETACHED);
    }

    /** @param stores where each processor keeps its state (a benchmark may measure what they would write) */
    public ReplayPipeline(TopologyConfig config, Consumer<Alert> alerts, Consumer<DeadLetter> deadLetters, ReplayStores stores) {
        this(config, alerts, i -> { }, deadLetters, stores);
    }

    /** @param incidents the incident pages, made from the alerts in the order the monitors send them, as live */
    public ReplayPipeline(TopologyConfig config, Consumer<Alert> alerts, Consumer<Incident> incidents, Consumer<DeadLetter> deadLetters,
                          ReplayStores stores) {
        if (config.liveClock()) {
            throw new IllegalArgumentException("replay runs on event time only; build its config with liveClock=false");
        }
        Stages stages = new Stages(config);
        ReplayContext<String, Incident> incidentContext = new ReplayContext<>(r -> incidents.accept(r.value()));
        incidentContext.addStore(IncidentProcessor.STORE, keep(stores.store(IncidentProcessor.STORE, TopologyFactory.incidentCodec())));
        IncidentProcessor incidentBooks = new IncidentProcessor();
        incidentBooks.init(incidentContext);
        Consumer<Record<String, MonitorOutput>> toAlerts = r -> {
            for (Alert a : r.value().alerts()) {
                alerts.accept(a);
                incidentBooks.process(new Record<>(a.getDedupKey(), a, r.timestamp()));
            }
            r.value().deadLetters().forEach(deadLetters);
        };
        fleetContext = monitorContext(toAlerts, keep(stores.store(TopologyFactory.FLEET_STORE, TopologyFactory.fleetStoreCodec())),
                clockOf(stores, TopologyFactory.FLEET_STORE));
        hostContext = monitorContext(toAlerts, keep(stores.store(TopologyFactory.HOST_STORE, TopologyFactory.hostStoreCodec())),
                clockOf(stores, TopologyFactory.HOST_STORE));
        floodContext = monitorContext(toAlerts, keep(stores.store(TopologyFactory.FLOOD_STORE, TopologyFactory.floodStoreCodec())),
                clockOf(stores, TopologyFactory.FLOOD_STORE));
        feedContext = monitorContext(toAlerts, keep(stores.store(TopologyFactory.FEED_STORE, TopologyFactory.feedCodec())),
                clockOf(stores, TopologyFactory.FEED_STORE));
        fleet = stages.fleet();
        host = stages.host();
        flood = stages.flood();
        feed = stages.feed();
        init(fleet, fleetContext);
        init(host, hostContext);
        init(flood, floodContext);
        init(feed, feedContext);
        for (Source s : Source.values()) {
            ReplayContext<String, Routed> ctx = new ReplayContext<>(r -> route(r, deadLetters));
            if (s.holdsPending()) {
                String name = TopologyFactory.pendingStore(s);
                ctx.addStore(name, keep(stores.store(name, TopologyFactory.pendingCodec(config.settings()))));
            }
            IngestProcessor p = stages.ingest(s);
            p.init(ctx);
            ingest.put(s, p);
            ingestContexts.put(s, ctx);
        }
    }

    private <V> ObjectStore<V> keep(ObjectStore<V> store) {
        stores.add(store);
        return store;
    }

    private ObjectStore<?> clockOf(ReplayStores stores, String monitorStore) {
        return keep(stores.store(MonitorProcessor.clockStore(monitorStore), TopologyFactory.clockCodec()));
    }

    /** Every store writes what changed since the last commit, as Kafka Streams has it do before each commit. */
    public void commit() {
        stores.forEach(ObjectStore::flushCache);
    }

    private static ReplayContext<String, MonitorOutput> monitorContext(Consumer<Record<String, MonitorOutput>> out,
                                                                        ObjectStore<?> state, ObjectStore<?> clock) {
        ReplayContext<String, MonitorOutput> ctx = new ReplayContext<>(out);
        ctx.addStore(state.name(), state);
        ctx.addStore(clock.name(), clock);
        return ctx;
    }

    private static void init(MonitorProcessor<?, ?> p, ReplayContext<String, MonitorOutput> ctx) {
        p.init(ctx);
    }

    /**
     * One input value, with the event time it will be ordered by and where it came from. The files
     * are merged into one event-time order, so every source has been read up to this time: each
     * ingest's clocks move with it (as all sources of one input partition share a task live).
     */
    public void feed(Source source, byte[] value, long eventTime, String origin, long line) {
        for (ReplayContext<String, Routed> c : ingestContexts.values()) {
            c.advance(eventTime);
        }
        ReplayContext<String, Routed> ctx = ingestContexts.get(source);
        ctx.setMetadata(origin, 0, line);
        ingest.get(source).process(new Record<>(null, value, eventTime));
        offset++;
    }

    private void route(Record<String, Routed> r, Consumer<DeadLetter> deadLetters) {
        Routed routed = r.value();
        switch (routed.destination()) {
            case DEAD_LETTER -> deadLetters.accept(routed.deadLetter());
            case FLEET -> deliver(fleet, fleetContext, r);
            case HOST -> deliver(host, hostContext, r);
            case FLOOD -> deliver(flood, floodContext, r);
            case FEED -> deliver(feed, feedContext, r);
        }
    }

    private static void deliver(MonitorProcessor<?, ?> monitor, ReplayContext<String, MonitorOutput> ctx, Record<String, Routed> r) {
        ctx.advance(r.timestamp());
        monitor.process(new Record<>(r.key(), r.value().envelope(), r.timestamp()));
    }

    /** End of input: sends on every pending summary, as the wall-clock flush would. */
    public void finish() {
        ingestContexts.values().forEach(ReplayContext::fireWallClock);
    }

    public long fed() {
        return offset;
    }

    /** Keys in a monitor's store, and the bytes they would take in its changelog (key and encoded value). */
    public record StoreSize(int keys, long bytes) {
    }

    /** What one monitor's store ({@link TopologyFactory#FLEET_STORE}, host or flood) holds now. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public StoreSize storeSize(String store) {
        ReplayContext<String, MonitorOutput> ctx;
        MonitoredCodec codec;
        switch (store) {
            case TopologyFactory.FLEET_STORE -> {
                ctx = fleetContext;
                codec = TopologyFactory.fleetCodec();
            }
            case TopologyFactory.HOST_STORE -> {
                ctx = hostContext;
                codec = TopologyFactory.hostCodec();
            }
            case TopologyFactory.FLOOD_STORE -> {
                ctx = floodContext;
                codec = TopologyFactory.floodCodec();
            }
            default -> throw new IllegalArgumentException("no monitor store " + store);
        }
        ObjectStore<Monitored<?>> s = ctx.getStateStore(store);
        long[] bytes = {0};
        s.forEach((key, value) -> bytes[0] += key.getBytes(StandardCharsets.UTF_8).length + codec.encode(value).length);
        return new StoreSize(s.size(), bytes[0]);
    }
}
