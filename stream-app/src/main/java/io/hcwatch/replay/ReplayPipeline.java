package io.hcwatch.replay;

import io.hcwatch.alert.Monitored;
import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.topology.Envelope;
import io.hcwatch.topology.IngestProcessor;
import io.hcwatch.topology.MonitorProcessor;
import io.hcwatch.topology.Routed;
import io.hcwatch.topology.Source;
import io.hcwatch.topology.TopologyConfig;
import io.hcwatch.topology.TopologyFactory;
import io.hcwatch.topology.state.MonitoredCodec;
import io.hcwatch.topology.state.StateCodec;
import io.hcwatch.topology.state.WriteBehindStore;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.apache.avro.specific.SpecificRecord;
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
    private final ReplayContext<String, SpecificRecord> fleetContext;
    private final ReplayContext<String, SpecificRecord> hostContext;
    private final ReplayContext<String, SpecificRecord> floodContext;
    private final ReplayContext<String, SpecificRecord> feedContext;
    private final MonitorProcessor<?> fleet;
    private final MonitorProcessor<?> host;
    private final MonitorProcessor<?> flood;
    private final MonitorProcessor<?> feed;
    private long offset;

    public ReplayPipeline(TopologyConfig config, Consumer<Alert> alerts, Consumer<DeadLetter> deadLetters) {
        this(config, alerts, deadLetters, null);
    }

    /**
     * @param changelog when not null, the monitors' stores encode what changed at each {@link #commit()}
     *                  and report the bytes their changelogs would take (a benchmark's measure)
     */
    public ReplayPipeline(TopologyConfig config, Consumer<Alert> alerts, Consumer<DeadLetter> deadLetters, LongConsumer changelog) {
        if (config.liveClock()) {
            throw new IllegalArgumentException("replay runs on event time only; build its config with liveClock=false");
        }
        TopologyFactory.Stages stages = new TopologyFactory.Stages(config);
        Consumer<Record<String, SpecificRecord>> toAlerts = r -> {
            if (r.value() instanceof Alert a) {
                alerts.accept(a);
            } else {
                deadLetters.accept((DeadLetter) r.value());
            }
        };
        fleetContext = monitorContext(TopologyFactory.FLEET_STORE, toAlerts, store(TopologyFactory.fleetCodec(), changelog));
        hostContext = monitorContext(TopologyFactory.HOST_STORE, toAlerts, store(TopologyFactory.hostCodec(), changelog));
        floodContext = monitorContext(TopologyFactory.FLOOD_STORE, toAlerts, store(TopologyFactory.floodCodec(), changelog));
        feedContext = monitorContext(TopologyFactory.FEED_STORE, toAlerts, store(TopologyFactory.feedCodec(), changelog));
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
                ctx.addStore(TopologyFactory.pendingStore(s), WriteBehindStore.detached());
            }
            IngestProcessor p = stages.ingest(s);
            p.init(ctx);
            ingest.put(s, p);
            ingestContexts.put(s, ctx);
        }
    }

    private static <V> WriteBehindStore<V> store(StateCodec<V> codec, LongConsumer changelog) {
        return changelog == null ? WriteBehindStore.detached() : WriteBehindStore.measuring(codec, changelog);
    }

    /** Every monitor store writes what changed since the last commit (measured when built with a changelog). */
    public void commit() {
        for (ReplayContext<String, SpecificRecord> ctx : List.of(fleetContext, hostContext, floodContext, feedContext)) {
            for (String store : List.of(TopologyFactory.FLEET_STORE, TopologyFactory.HOST_STORE, TopologyFactory.FLOOD_STORE,
                    TopologyFactory.FEED_STORE)) {
                if (ctx.hasStore(store)) {
                    ctx.<WriteBehindStore<?>>getStateStore(store).flushCache();
                }
            }
        }
    }

    private static ReplayContext<String, SpecificRecord> monitorContext(String store, Consumer<Record<String, SpecificRecord>> out,
                                                               WriteBehindStore<?> state) {
        ReplayContext<String, SpecificRecord> ctx = new ReplayContext<>(out);
        ctx.addStore(store, state);
        ctx.addStore(MonitorProcessor.clockStore(store), WriteBehindStore.detached());
        return ctx;
    }

    @SuppressWarnings("unchecked")
    private static void init(MonitorProcessor<?> p, ReplayContext<String, SpecificRecord> ctx) {
        ((MonitorProcessor<Object>) p).init(ctx);
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

    @SuppressWarnings("unchecked")
    private static void deliver(MonitorProcessor<?> monitor, ReplayContext<String, SpecificRecord> ctx, Record<String, Routed> r) {
        ctx.advance(r.timestamp());
        ((MonitorProcessor<Object>) monitor).process(new Record<String, Envelope>(r.key(), r.value().envelope(), r.timestamp()));
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
        ReplayContext<String, SpecificRecord> ctx;
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
        WriteBehindStore<Monitored<?>> s = ctx.getStateStore(store);
        long[] bytes = {0};
        s.forEach((key, value) -> bytes[0] += key.getBytes(StandardCharsets.UTF_8).length + codec.encode(value).length);
        return new StoreSize(s.size(), bytes[0]);
    }
}
