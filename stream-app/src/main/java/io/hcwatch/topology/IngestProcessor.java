package io.hcwatch.topology;

import io.hcwatch.avro.internal.FeedSeen;
import io.hcwatch.avro.internal.HaproxyTraffic;
import io.hcwatch.avro.internal.TargetSeen;
import io.hcwatch.avro.internal.TargetTraffic;
import io.hcwatch.avro.v1.BackendEvent;
import io.hcwatch.avro.v1.ConfigKind;
import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.avro.v1.HaproxyStats;
import io.hcwatch.avro.v1.HaproxyRequest;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.detect.feed.FeedDetection;
import io.hcwatch.input.AlbTrafficLine;
import io.hcwatch.input.BackendNotice;
import io.hcwatch.input.Check;
import io.hcwatch.input.CheckBatch;
import io.hcwatch.input.ClientSummary;
import io.hcwatch.input.Decoded;
import io.hcwatch.input.FeedHeartbeat;
import io.hcwatch.input.FrontendSummary;
import io.hcwatch.input.HaproxyLine;
import io.hcwatch.input.LoadBalancerConfig;
import io.hcwatch.input.Poll;
import io.hcwatch.input.Summary;
import io.hcwatch.input.TargetSummary;
import io.hcwatch.input.Telemetry;
import io.hcwatch.input.UnreadableCheck;
import io.hcwatch.metrics.PipelineMetrics;
import io.hcwatch.parse.ParseResult;
import io.hcwatch.parse.RejectReason;
import io.hcwatch.parse.TargetIdentity;
import io.hcwatch.time.UpstreamClock;
import io.hcwatch.topology.Routed.Destination;
import io.hcwatch.topology.state.ObjectStore;
import io.hcwatch.traffic.CardinalityLimits;
import io.hcwatch.traffic.TrafficCombiner;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * The first stage for one input topic: decodes every value, sends what does not decode to the
 * dead-letter topic with its reason and original bytes, keys health checks and configs for
 * their monitor, sums access-log lines into one-second traffic summaries and holds health checks
 * in per-target-group batches before they leave the partition (flushed when their second is
 * over and on a short wall-clock interval). Never throws on input: a decoder bug is
 * dead-lettered as {@code internal_error}.
 */
public final class IngestProcessor implements Processor<byte[], byte[], String, Routed> {

    static final String PENDING_KEY = "pending";
    /** Key of progress reports on the monitor topics; they go to every partition whatever the key. */
    static final String PROGRESS_KEY = "";

    private final Source source;
    private final Decoder decoder;
    private final PipelineMetrics metrics;
    private final String pendingStore;
    private final Duration flushInterval;
    private final int sketchCapacity;
    private final UpstreamClock progress;
    private final String topic;
    private final InputLag inputLag;
    private final CardinalityLimits.Limits limits;
    private final CardinalityLimits cardinality;
    private int partition;
    private ProcessorContext<String, Routed> context;
    private ObjectStore<TrafficCombiner> pending;
    private TrafficCombiner combiner;
    private io.micrometer.core.instrument.Counter parsed;
    private long newestSecond = Long.MIN_VALUE;
    /** A second was sent on while routing the current record: report progress once it is held too. */
    private boolean secondsSent;
    private String upstream;
    private final HaproxyHosts haproxyHosts;
    private final ProcessingFailures failures;
    /** Per feed (host or load balancer) of this partition, the newest second reported to the feed monitor. */
    private final Map<String, Long> feedSeconds = new HashMap<>();
    private final SourceLags sourceLags;
    private final boolean delayNamed;
    private SourceLags.Partition arrivals;
    /** Kafka timestamp of the record being processed: when it arrived, for {@link SourceLags}. */
    private long recordTimestamp = -1;

    /**
     * @param pendingStore the store holding summaries and check batches not yet sent (null for a
     *                     source that holds nothing)
     * @param topic        the input topic, for dead letters
     */
    public IngestProcessor(Source source, Decoder decoder, String pendingStore, String topic, IngestSettings settings,
                           IngestServices services) {
        this.sourceLags = services.sourceLags();
        this.delayNamed = !settings.delay().isZero();
        this.haproxyHosts = services.haproxyHosts();
        this.source = source;
        this.limits = settings.limits();
        this.cardinality = new CardinalityLimits(limits);
        this.topic = topic;
        this.inputLag = services.inputLag();
        long idleMillis = settings.idleTimeout().toMillis();
        this.progress = source.paces().isEmpty() ? null
                : new UpstreamClock(idleMillis, (int) (idleMillis / Math.max(1, settings.flushInterval().toMillis())),
                        settings.delay().toMillis());
        this.sketchCapacity = settings.sketchCapacity();
        this.decoder = decoder;
        this.metrics = services.metrics();
        this.pendingStore = pendingStore;
        this.flushInterval = settings.flushInterval();
        this.failures = new ProcessingFailures("ingest-" + source.id(), metrics);
    }

    @Override
    public void init(ProcessorContext<String, Routed> context) {
        this.context = context;
        this.partition = context.taskId().partition();
        this.upstream = source.id() + "-" + partition;
        this.parsed = metrics.parsedCounter(source.id());
        if (sourceLags != null) {
            arrivals = sourceLags.add(source, delayNamed);
        }
        if (pendingStore != null) {
            pending = context.getStateStore(pendingStore);
            combiner = pending.get(PENDING_KEY);
            context.schedule(flushInterval, PunctuationType.WALL_CLOCK_TIME, now -> {
                try {
                    flush(Long.MAX_VALUE);
                    if (progress != null) {
                        progress.tick();
                    }
                    reportProgress();
                } catch (RuntimeException e) {
                    deadLetter(failures.failed(e, context, source.id(), null, null, -1), now);
                }
            });
        }
    }

    @Override
    public void close() {
        if (arrivals != null) {
            sourceLags.remove(arrivals);
            arrivals = null;
        }
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        recordTimestamp = record.timestamp();
        ParseResult<? extends Decoded> result;
        try {
            result = record.value() == null
                    ? ParseResult.rejected("empty", "the record has no value (null)")
                    : decoder.decode(record.value());
        } catch (RuntimeException e) {
            result = ParseResult.rejected("internal_error", "decoder failed: " + e);
        }
        if (result instanceof ParseResult.Ok<? extends Decoded> ok) {
            try {
                String refused = ok.value().accept(admission);
                if (refused != null) {
                    refuse(record, refused);
                    return;
                }
                parsed.increment();
                ok.value().accept(routing);
                if (secondsSent) {
                    secondsSent = false;
                    reportProgress();
                }
            } catch (RuntimeException e) {
                secondsSent = false;
                deadLetter(failures.failed(e, context, source.id(), null, record.value(), record.timestamp()), record.timestamp());
            }
        } else if (result instanceof ParseResult.Rejected<?> rejected) {
            if (progress != null) {
                progress.readUntimed(context.currentSystemTimeMs());
            }
            metrics.rejected(source.id(), rejected.reason());
            context.forward(new Record<>(source.id(), Routed.dead(deadLetter(record, rejected)), record.timestamp()));
            if (rejected.identity() != null) {
                targetSeen(rejected.identity(), record.timestamp());
            }
        } else if (result instanceof ParseResult.Skipped<?> skipped) {
            if (progress != null) {
                progress.readUntimed(context.currentSystemTimeMs());
            }
            metrics.skipped(source.id(), skipped.kind());
        }
    }

    /** The kind whose limit a record would pass (see {@link CardinalityLimits}), or null when it is taken in. */
    private final Decoded.Cases<String> admission = new Decoded.Cases<>() {
        @Override
        public String albLine(AlbTrafficLine a) {
            return cardinality.targetGroup(a.targetGroup(), a.targetIp(), a.time());
        }

        @Override
        public String haproxyLine(HaproxyLine line) {
            HaproxyRequest h = line.request();
            long ts = line.eventTime();
            String host = cardinality.host(h.getHost(), h.getFrontend(), ts);
            return host != null ? host : cardinality.targetGroup(h.getBackend(), h.getServer(), ts);
        }

        @Override
        public String check(Check check) {
            HealthCheckResult h = check.result();
            return cardinality.targetGroup(h.getTargetGroup(), h.getTarget(), check.eventTime());
        }

        @Override
        public String backendNotice(BackendNotice notice) {
            return cardinality.targetGroup(notice.event().getBackend(), null, notice.eventTime());
        }

        @Override
        public String config(LoadBalancerConfig config) {
            LbConfig c = config.config();
            long ts = config.eventTime();
            return c.getKind() == ConfigKind.target_group ? cardinality.targetGroup(c.getId(), null, ts)
                    : cardinality.host(c.getHost() != null ? c.getHost() : hostOf(c.getId()), c.getFrontend(), ts);
        }

        @Override
        public String poll(Poll poll) {
            return null;
        }
    };

    private void refuse(Record<byte[], byte[]> record, String kind) {
        if (progress != null) {
            progress.readUntimed(context.currentSystemTimeMs());
        }
        metrics.rejected(source.id(), RejectReason.CARDINALITY);
        metrics.cardinalityRejected(kind);
        context.forward(new Record<>(source.id(), Routed.dead(deadLetter(record, RejectReason.CARDINALITY,
                "names one " + kind.replace('_', ' ') + " more than this partition takes (" + limitSetting(kind) + ")")),
                record.timestamp()));
    }

    private String limitSetting(String kind) {
        return switch (kind) {
            case CardinalityLimits.TARGET_GROUP -> "limits.target-groups=" + limits.targetGroups();
            case CardinalityLimits.TARGET -> "limits.targets-per-group=" + limits.targetsPerGroup();
            case CardinalityLimits.HOST -> "limits.hosts=" + limits.hosts();
            default -> "limits.frontends-per-host=" + limits.frontendsPerHost();
        };
    }

    private final Decoded.Cases<Void> routing = new Decoded.Cases<>() {
        @Override
        public Void albLine(AlbTrafficLine a) {
            read(a.time());
            combine(a.time()).addAlb(a);
            pending.markChanged(PENDING_KEY);
            return null;
        }

        @Override
        public Void haproxyLine(HaproxyLine line) {
            HaproxyRequest h = line.request();
            read(line.eventTime());
            if (HaproxyHosts.unnamed(h.getHost())) {
                String host = haproxyHosts.forUnnamed();
                if (host != null) {
                    h.setHost(host);
                }
            }
            combine(line.eventTime()).addHaproxy(h);
            pending.markChanged(PENDING_KEY);
            return null;
        }

        @Override
        public Void check(Check check) {
            read(check.eventTime());
            List<HealthCheckResult> full = combine(check.eventTime()).addCheck(check.result());
            pending.markChanged(PENDING_KEY);
            if (full != null) {
                sendChecks(full);
            }
            return null;
        }

        @Override
        public Void backendNotice(BackendNotice notice) {
            BackendEvent e = notice.event();
            read(notice.eventTime());
            // a server's state change must not overtake the checks read before it
            flushChecks();
            send(Destination.FLEET, e.getBackend(), notice, notice.eventTime());
            secondsSent = true;
            return null;
        }

        @Override
        public Void config(LoadBalancerConfig config) {
            LbConfig c = config.config();
            if (c.getKind() == ConfigKind.target_group) {
                flushChecks();
                send(Destination.FLEET, c.getId(), config, config.eventTime());
            } else {
                String host = c.getHost() != null ? c.getHost() : hostOf(c.getId());
                haproxyHosts.named(host);
                send(Destination.HOST, host, config, config.eventTime());
            }
            return null;
        }

        @Override
        public Void poll(Poll poll) {
            HaproxyStats s = poll.stats();
            // a poll is already one second of one host: nothing to sum, so it goes on at once
            long ts = poll.eventTime();
            read(ts);
            haproxyHosts.named(s.getHost());
            send(Destination.HOST, s.getHost(), poll, ts);
            secondsSent = true;
            // the host's heartbeat: telemetry_gap tells a log-shipping gap from a host gone
            if (firstOfItsSecond(s.getHost(), ts)) {
                send(Destination.FEED, FeedDetection.key(FeedDetection.HAPROXY, s.getHost()),
                        FeedDetection.pollOf(s.getHost(), ts), ts);
            }
            return null;
        }
    };

    /**
     * A health check that did not parse still names its target: the fleet monitor learns that the
     * target exists and that its state is unknown, so it is neither forgotten nor counted unhealthy.
     */
    private void targetSeen(TargetIdentity id, long recordTimestamp) {
        long time = id.time() >= 0 ? id.time() : recordTimestamp;
        String refused = cardinality.targetGroup(id.targetGroup(), id.target(), time);
        if (refused != null) {
            // dead-lettered already for its parse error; it only must not create a key past the limit
            metrics.cardinalityRejected(refused);
            return;
        }
        send(Destination.FLEET, id.targetGroup(), new UnreadableCheck(new TargetSeen(id.targetGroup(), id.target(), time, source.id())),
                time);
    }

    private void read(long eventTime) {
        if (progress != null) {
            progress.read(eventTime, context.currentSystemTimeMs());
        }
        if (arrivals != null) {
            sourceLags.read(arrivals, eventTime, recordTimestamp, context.currentSystemTimeMs());
        }
    }

    /**
     * Tells every monitor this source paces how far its partition has got, when that changed: the
     * monitors hold what is ahead of their slowest upstream, so records read far apart still meet in
     * event-time order (see {@link io.hcwatch.time.MonitorClock}). Sent after what it covers, on the
     * same topics, so it never overtakes a record it vouches for.
     */
    private void reportProgress() {
        if (progress == null) {
            return;
        }
        UpstreamClock.Report report = progress.report(combiner == null ? Long.MAX_VALUE : combiner.oldestHeld(),
                context.currentSystemTimeMs(), inputLag.lag(topic, partition) > 0);
        if (report == null) {
            return;
        }
        Envelope marker = Envelope.progress(upstream, report.time(), report.idle());
        for (Destination d : source.paces()) {
            context.forward(new Record<>(PROGRESS_KEY, Routed.to(d, marker), Math.max(0, report.time())));
        }
    }

    private static String hostOf(String id) {
        int slash = id.indexOf('/');
        return slash < 0 ? id : id.substring(0, slash);
    }

    /** The combiner, after sending on every second older than the one {@code eventTime} falls in. */
    private TrafficCombiner combine(long eventTime) {
        if (combiner == null) {
            combiner = pending.getForUpdate(PENDING_KEY, k -> new TrafficCombiner(sketchCapacity));
        }
        long second = Math.floorDiv(eventTime, 1000) * 1000;
        if (second > newestSecond) {
            if (newestSecond != Long.MIN_VALUE) {
                flush(second);
                secondsSent = true;
            }
            newestSecond = second;
        }
        return combiner;
    }

    private void flush(long before) {
        if (combiner == null || combiner.isEmpty()) {
            return;
        }
        sendCheckBatches(combiner.drainChecksBefore(before));
        List<Summary> summaries = combiner.drainBefore(before);
        if (summaries.isEmpty()) {
            return;
        }
        pending.markChanged(PENDING_KEY);
        summaries.forEach(s -> s.accept(summaryRoutes));
    }

    private final Summary.Cases<Void> summaryRoutes = new Summary.Cases<>() {
        @Override
        public Void targetSummary(TargetSummary summary) {
            TargetTraffic t = summary.traffic();
            send(Destination.FLEET, t.getTargetGroup(), summary, t.getBucketStart());
            if (source == Source.ALB) {
                feedSeen(t.getLb(), t.getBucketStart());
            }
            return null;
        }

        @Override
        public Void frontendSummary(FrontendSummary summary) {
            HaproxyTraffic h = summary.traffic();
            send(Destination.HOST, h.getHost(), summary, h.getBucketStart());
            feedSeen(h.getHost(), h.getBucketStart());
            return null;
        }

        @Override
        public Void clientSummary(ClientSummary summary) {
            send(Destination.FLOOD, summary.traffic().getPlatform() + "/" + summary.traffic().getScope(), summary,
                    summary.eventTime());
            return null;
        }
    };

    private void flushChecks() {
        if (combiner != null) {
            sendCheckBatches(combiner.drainChecksBefore(Long.MAX_VALUE));
        }
    }

    private void sendCheckBatches(List<List<HealthCheckResult>> batches) {
        if (!batches.isEmpty()) {
            pending.markChanged(PENDING_KEY);
            batches.forEach(this::sendChecks);
        }
    }

    private void sendChecks(List<HealthCheckResult> batch) {
        CheckBatch checks = new CheckBatch(batch);
        long time = checks.eventTime();
        context.forward(new Record<>(batch.get(0).getTargetGroup(), Routed.to(Destination.FLEET, new Envelope(checks, upstream)),
                time));
        if (source == Source.HEALTH || source == Source.ALB_HEALTH) {
            HealthCheckResult first = batch.get(0);
            // ALB's health-check log lines name the target group only
            feedSeen(first.getLb() != null ? first.getLb() : first.getTargetGroup(), time);
        }
    }

    /**
     * Tells the feed monitor that this source's feed from {@code name} (an HAProxy host, a load
     * balancer) sent data up to {@code time}, at most once per second of it: telemetry_gap notices
     * when a feed that was sending stops.
     */
    private void feedSeen(String name, long time) {
        if (name == null || !source.paces().contains(Destination.FEED) || !firstOfItsSecond(name, time)) {
            return;
        }
        send(Destination.FEED, FeedDetection.key(source.id(), name), new FeedHeartbeat(new FeedSeen(source.id(), name, time)), time);
    }

    /** Whether {@code time} is in a newer second than this partition last told the feed monitor about {@code name}. */
    private boolean firstOfItsSecond(String name, long time) {
        long second = Math.floorDiv(time, 1000) * 1000;
        Long last = feedSeconds.get(name);
        if (last != null && last >= second) {
            return false;
        }
        feedSeconds.put(name, second);
        return true;
    }

    private void send(Destination destination, String key, Telemetry r, long eventTime) {
        context.forward(new Record<>(key, Routed.to(destination, new Envelope(r, upstream)), eventTime));
    }

    private void deadLetter(DeadLetter letter, long timestamp) {
        context.forward(new Record<>(source.id(), Routed.dead(letter), Math.max(0, timestamp)));
    }

    private DeadLetter deadLetter(Record<byte[], byte[]> record, ParseResult.Rejected<?> rejected) {
        return deadLetter(record, rejected.reason(), rejected.error());
    }

    private DeadLetter deadLetter(Record<byte[], byte[]> record, String reason, String error) {
        RecordMetadata meta = context.recordMetadata().orElse(null);
        return DeadLetter.newBuilder()
                .setSource(source.id())
                .setTopic(meta == null ? null : meta.topic())
                .setPartition(meta == null ? null : meta.partition())
                .setOffset(meta == null ? null : meta.offset())
                .setInputTimestamp(record.timestamp() >= 0 ? Instant.ofEpochMilli(record.timestamp()) : null)
                .setReason(reason)
                .setError(error)
                .setRaw(record.value() == null ? null : ByteBuffer.wrap(record.value()))
                .setDeadLetteredAt(Instant.ofEpochMilli(context.currentSystemTimeMs()))
                .build();
    }
}
