package io.hcwatch.topology;

import io.hcwatch.alert.AlertFactory;
import io.hcwatch.alert.KeyMonitor;
import io.hcwatch.alert.LifecycleSettings;
import io.hcwatch.config.Settings;
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
import io.hcwatch.input.ClientSummary;
import io.hcwatch.input.FeedHeartbeat;
import io.hcwatch.input.FleetInput;
import io.hcwatch.input.HostInput;
import io.hcwatch.metrics.ClockGauges;
import io.hcwatch.metrics.FleetGauges;
import io.hcwatch.metrics.PipelineMetrics;
import io.hcwatch.time.TimeSettings;
import io.hcwatch.topology.Routed.Destination;
import io.hcwatch.traffic.CardinalityLimits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;

/** Creates the topology's processors; one instance per topology, so what they share (monitors, gauges) is made once. */
public final class Stages {

    private final TopologyConfig config;
    private final PipelineMetrics metrics;
    private final AlertFactory alertFactory;
    private final TimeSettings time;
    private final ClockGauges clockGauges;
    private final HaproxyHosts haproxyHosts = new HaproxyHosts();
    private final SourceLags sourceLags;
    private final MonitorKind<FleetState, FleetInput> fleet;
    private final MonitorKind<HostState, HostInput> host;
    private final MonitorKind<FloodState, ClientSummary> flood;
    private final MonitorKind<FeedState, FeedHeartbeat> feed;

    public Stages(TopologyConfig config) {
        this(config, UnaryOperator.identity());
    }

    /** @param fleetDetection wraps the fleet monitor's detection (tests: a detector that fails) */
    public Stages(TopologyConfig config, UnaryOperator<Detection<FleetState, FleetInput>> fleetDetection) {
        this.config = config;
        Settings settings = config.settings();
        this.metrics = new PipelineMetrics(config.meterRegistry()).initialize(
                Arrays.stream(Source.values()).map(Source::id).toList(), TopologyFactory.MONITORS);
        FleetGauges gauges = new FleetGauges(config.meterRegistry(), settings.millis("headroom.window"));
        LifecycleSettings lifecycle = LifecycleSettings.from(settings);
        this.time = TimeSettings.from(settings);
        for (String id : time.sourceDelays().keySet()) {
            if (Arrays.stream(Source.values()).noneMatch(s -> s.id().equals(id))) {
                throw new IllegalArgumentException("window.source-delay names no source '" + id + "' (sources: "
                        + Arrays.stream(Source.values()).map(Source::id).toList() + ")");
            }
        }
        long step = time.step().toMillis();
        long idle = settings.millis("state.idle-timeout");
        this.fleet = new MonitorKind<>("fleet", TopologyFactory.FLEET_STORE, FleetInput.class,
                new KeyMonitor<>(fleetDetection.apply(new FleetDetection(FleetSettings.from(settings))), lifecycle, step, idle),
                (tg, m) -> {
                    if (m == null) {
                        gauges.forgetTargetGroup(tg);
                    } else {
                        gauges.publish(tg, m.state, m.time.clock, m.latest);
                    }
                });
        this.host = new MonitorKind<>("host", TopologyFactory.HOST_STORE, HostInput.class,
                new KeyMonitor<>(new SlotDetection(SlotSettings.from(settings)), lifecycle, step, idle),
                (name, m) -> {
                    if (m == null) {
                        gauges.forgetHost(name);
                    } else {
                        gauges.publish(name, m.state, m.time.clock);
                    }
                });
        this.flood = new MonitorKind<>("flood", TopologyFactory.FLOOD_STORE, ClientSummary.class,
                new KeyMonitor<>(new FloodDetection(FloodSettings.from(settings)), lifecycle, step, idle), (scope, m) -> { });
        // a feed that stopped is idle by definition: it is never forgotten, or its telemetry_gap would resolve
        this.feed = new MonitorKind<>("feed", TopologyFactory.FEED_STORE, FeedHeartbeat.class,
                new KeyMonitor<>(new FeedDetection(GapSettings.from(settings)), lifecycle, step, Long.MAX_VALUE), (f, m) -> { });
        this.alertFactory = new AlertFactory(lifecycle.runbookBase());
        this.clockGauges = new ClockGauges(config.meterRegistry(), TopologyFactory.MONITORS, System::currentTimeMillis);
        this.sourceLags = config.liveClock() ? new SourceLags(config.meterRegistry()) : null;
    }

    public TopologyConfig config() {
        return config;
    }

    public IngestProcessor ingest(Source s) {
        Decoder decoder = config.decoders().get(s);
        if (decoder == null) {
            throw new IllegalStateException("no decoder configured for " + s.id());
        }
        IngestSettings settings = new IngestSettings(config.settings().duration("combine.flush-interval"),
                config.settings().integer("flood.capacity"), config.liveClock() ? time.idleTimeout() : Duration.ZERO,
                config.liveClock() ? time.delayOf(s.id()) : Duration.ZERO, CardinalityLimits.Limits.from(config.settings()),
                !config.liveClock(), config.liveClock() ? config.settings().duration("combine.quiet-flush") : Duration.ZERO);
        return new IngestProcessor(s, decoder, s.holdsPending() ? TopologyFactory.pendingStore(s) : null, config.topics().input(s),
                settings, new IngestServices(metrics, config.inputLag(), haproxyHosts, sourceLags));
    }

    public MonitorProcessor<FleetState, FleetInput> fleet() {
        return monitor(fleet, Destination.FLEET);
    }

    public MonitorProcessor<HostState, HostInput> host() {
        return monitor(host, Destination.HOST);
    }

    public MonitorProcessor<FloodState, ClientSummary> flood() {
        return monitor(flood, Destination.FLOOD);
    }

    public MonitorProcessor<FeedState, FeedHeartbeat> feed() {
        return monitor(feed, Destination.FEED);
    }

    private <S, I> MonitorProcessor<S, I> monitor(MonitorKind<S, I> kind, Destination destination) {
        return new MonitorProcessor<>(kind, alertFactory, metrics, clockGauges, time, config.liveClock(), expected(destination));
    }

    /** Every input partition that paces {@code monitor}, as the ingest names it ({@code source-partition}). */
    private List<String> expected(Destination monitor) {
        List<String> ids = new ArrayList<>();
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
