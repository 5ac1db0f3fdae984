package io.hcwatch.topology;

import io.hcwatch.input.Decoded;
import io.hcwatch.input.FromNewerRelease;
import io.hcwatch.metrics.PipelineMetrics;
import io.hcwatch.parse.ParseResult;
import io.hcwatch.parse.RejectReason;
import io.hcwatch.parse.TargetIdentity;
import io.hcwatch.topology.state.DetachedStore;
import io.hcwatch.topology.state.ObjectStore;
import io.hcwatch.traffic.TrafficCombiner;
import io.micrometer.core.instrument.Counter;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * The first stage for one input topic, wiring the ingest's stages: {@link Decoding} turns each
 * value into a record, a rejection or a skip; {@link Admission} refuses names past the
 * cardinality limits; {@link Routing} sends each record on, or into this partition's seconds
 * ({@link Summarising}, released through {@link SummaryRoutes}); {@link ProgressReports} tells the
 * monitors how far the partition has got; what is not taken goes to the dead-letter topic with its
 * reason and bytes ({@link DeadLetters}). Never throws on input: a failure of hcwatch's own code on
 * a record is dead-lettered as a processing error ({@link ProcessingFailures}).
 */
public final class IngestProcessor implements Processor<byte[], byte[], String, Routed> {

    private final Source source;
    private final Decoding decoding;
    private final IngestSettings settings;
    private final IngestServices services;
    private final PipelineMetrics metrics;
    private final String pendingStore;
    private final String topic;
    private final Admission admission;
    private final DeadLetters deadLetters;
    private final ProcessingFailures failures;
    private final NewerReleaseRecords newer;
    /** Dead letters of what a newer release left in the pending store: sent with the first record or flush (init cannot forward). */
    private final List<io.hcwatch.avro.v1.DeadLetter> refusedAtStart = new ArrayList<>();
    private ProcessorContext<String, Routed> context;
    private Outbox out;
    private ProgressReports progress;
    private Summarising seconds;
    private Routing routing;
    private Counter parsed;
    private SourceLags.Partition arrivals;
    private final FlushSchedule flushes;
    /** Kafka timestamp of the record being processed: when it arrived, for {@link SourceLags}. */
    private long recordTimestamp = -1;

    /**
     * @param pendingStore the store holding summaries and check batches not yet sent (null for a
     *                     source that holds nothing)
     * @param topic        the input topic, for dead letters
     */
    public IngestProcessor(Source source, Decoder decoder, String pendingStore, String topic, IngestSettings settings,
                           IngestServices services) {
        this.source = source;
        this.decoding = new Decoding(decoder);
        this.settings = settings;
        this.services = services;
        this.metrics = services.metrics();
        this.pendingStore = pendingStore;
        this.topic = topic;
        this.admission = new Admission(settings.limits());
        this.deadLetters = new DeadLetters(source.id());
        this.failures = new ProcessingFailures("ingest-" + source.id(), metrics);
        this.newer = new NewerReleaseRecords("ingest-" + source.id(), metrics);
        this.flushes = new FlushSchedule(settings);
    }

    @Override
    public void init(ProcessorContext<String, Routed> context) {
        this.context = context;
        int partition = context.taskId().partition();
        this.out = new Outbox(context::forward, source.id() + "-" + partition);
        this.progress = new ProgressReports(source, settings, out, () -> services.inputLag().lag(topic, partition) > 0);
        FeedHeartbeats heartbeats = new FeedHeartbeats(source, out);
        // a source that holds nothing (configs) releases nothing: an empty store in memory stands for one
        ObjectStore<TrafficCombiner> pending = pendingStore == null ? new DetachedStore<>("pending-" + source.id())
                : context.getStateStore(pendingStore);
        this.seconds = new Summarising(pending, settings.sketchCapacity(), new SummaryRoutes(source, out, heartbeats),
                progress::due);
        for (FromNewerRelease record : seconds.takeFromNewerRelease()) {
            refusedAtStart.add(newer.refused(record, "pending", context, Summarising.PENDING_KEY, -1));
        }
        this.routing = new Routing(source, seconds, out, heartbeats, services.haproxyHosts(), this::read, progress::due);
        this.parsed = metrics.parsedCounter(source.id());
        if (services.sourceLags() != null) {
            arrivals = services.sourceLags().add(source, !settings.delay().isZero());
        }
        if (pendingStore != null) {
            context.schedule(settings.tickInterval(), PunctuationType.WALL_CLOCK_TIME, this::tick);
        }
    }

    /** The wall clock moved on: send on what is held when it is time ({@link FlushSchedule}), and report progress. */
    private void tick(long now) {
        sendRefusedAtStart(now);
        try {
            if (flushes.flushAt(now, progress.lagging())) {
                // live, a second still being read goes out in parts, so that its records are not held back
                // for the rest of it; replay's clock is the input's, and every second before it is complete
                seconds.releaseBefore(settings.wholeSeconds() ? Math.floorDiv(now, 1000) * 1000 : Long.MAX_VALUE);
            }
            progress.tick();
            progress.report(seconds::oldestHeld, context.currentSystemTimeMs());
        } catch (RuntimeException e) {
            out.deadLetter(source.id(), failures.failed(e, context, source.id(), null, null, -1), Math.max(0, now));
        }
    }

    private void sendRefusedAtStart(long timestamp) {
        if (!refusedAtStart.isEmpty()) {
            refusedAtStart.forEach(letter -> out.deadLetter(source.id(), letter, Math.max(0, timestamp)));
            refusedAtStart.clear();
        }
    }

    @Override
    public void close() {
        if (arrivals != null) {
            services.sourceLags().remove(arrivals);
            arrivals = null;
        }
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        recordTimestamp = record.timestamp();
        flushes.read();
        sendRefusedAtStart(record.timestamp());
        ParseResult<? extends Decoded> result = decoding.decode(record.value());
        if (result instanceof ParseResult.Ok<? extends Decoded> ok) {
            take(record, ok.value());
        } else if (result instanceof ParseResult.Rejected<?> rejected) {
            progress.readUntimed(context.currentSystemTimeMs());
            metrics.rejected(source.id(), rejected.reason());
            out.deadLetter(source.id(), deadLetter(record, rejected.reason(), rejected.error()), record.timestamp());
            if (rejected.identity() != null) {
                unreadable(rejected.identity(), record.timestamp());
            }
        } else if (result instanceof ParseResult.Skipped<?> skipped) {
            progress.readUntimed(context.currentSystemTimeMs());
            metrics.skipped(source.id(), skipped.kind());
        }
    }

    /** A record that decoded: refused past a limit, or routed; either way, nothing it does reaches the stream thread. */
    private void take(Record<byte[], byte[]> record, Decoded decoded) {
        try {
            String refused = admission.refusedKind(decoded);
            if (refused != null) {
                progress.readUntimed(context.currentSystemTimeMs());
                metrics.rejected(source.id(), RejectReason.CARDINALITY);
                metrics.cardinalityRejected(refused);
                out.deadLetter(source.id(), deadLetter(record, RejectReason.CARDINALITY, admission.refusal(refused)),
                        record.timestamp());
                return;
            }
            parsed.increment();
            decoded.accept(routing);
            progress.reportIfDue(seconds::oldestHeld, context.currentSystemTimeMs());
        } catch (RuntimeException e) {
            progress.forgetDue();
            out.deadLetter(source.id(), failures.failed(e, context, source.id(), null, record.value(), record.timestamp()),
                    Math.max(0, record.timestamp()));
        }
    }

    /** A check that did not parse but names its target: known to exist, unless naming it would pass a limit. */
    private void unreadable(TargetIdentity id, long recordTimestamp) {
        long time = id.time() >= 0 ? id.time() : recordTimestamp;
        String refused = admission.refusedTarget(id.targetGroup(), id.target(), time);
        if (refused != null) {
            // dead-lettered already for its parse error; it only must not create a key past the limit
            metrics.cardinalityRejected(refused);
            return;
        }
        routing.unreadable(id, time);
    }

    /** A record of event time {@code eventTime} was read: the partition's progress, and how late it arrived. */
    private void read(long eventTime) {
        long wall = context.currentSystemTimeMs();
        progress.read(eventTime, wall);
        if (arrivals != null) {
            services.sourceLags().read(arrivals, eventTime, recordTimestamp, wall);
        }
    }

    private io.hcwatch.avro.v1.DeadLetter deadLetter(Record<byte[], byte[]> record, String reason, String error) {
        return deadLetters.of(context.recordMetadata().orElse(null), record.timestamp(), record.value(), reason, error,
                context.currentSystemTimeMs());
    }
}
