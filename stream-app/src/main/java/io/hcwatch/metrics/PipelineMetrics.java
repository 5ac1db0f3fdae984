package io.hcwatch.metrics;

import io.hcwatch.parse.RejectReason;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Counters of what the pipeline did with its inputs and what it alerted on. Tags are bounded:
 * source, reason and kind come from fixed sets, never from the data (no client or target names);
 * a reason outside the known set is counted as {@code other}.
 *
 * <p>Series that alert rules and the dashboard read are registered at zero up front
 * ({@link #initialize}): a counter born at 1 shows no {@code increase()} for its first event, and
 * an absent series cannot be told from a broken scrape.
 */
public final class PipelineMetrics {

    public static final String RECORDS = "hcwatch.records";
    public static final String REJECTED = "hcwatch.records.rejected";
    public static final String SKIPPED = "hcwatch.records.skipped";
    public static final String LATE = "hcwatch.records.late";
    public static final String BEHIND = "hcwatch.records.behind";
    public static final String UPSTREAMS_SILENT = "hcwatch.upstreams.silent";
    public static final String ALERTS = "hcwatch.alerts";
    public static final String PROCESSING_ERRORS = "hcwatch.processing.errors";
    public static final String CARDINALITY_REJECTED = "hcwatch.cardinality.rejected";
    public static final String KEYS_DELETED = "hcwatch.state.keys.deleted";
    public static final String NEWER_VERSION = "hcwatch.newer.version";
    /**
     * Where a newer release's writing was found: a record on a repartition topic, held by a monitor's
     * clock or in a pending store, or a key's state in a monitor's store (counted per record refused for it).
     */
    public static final List<String> NEWER_VERSION_PLACES = List.of("repartition", "clock", "pending", "state");

    static final Set<String> KNOWN_REASONS = Set.of(RejectReason.EMPTY, RejectReason.BAD_UTF8, RejectReason.FIELD_COUNT,
            RejectReason.BAD_QUOTING, RejectReason.BAD_TIMESTAMP, RejectReason.BAD_NUMBER, RejectReason.BAD_ADDRESS,
            RejectReason.UNKNOWN_TYPE, RejectReason.BAD_FIELD, RejectReason.NOT_HAPROXY, RejectReason.UNKNOWN_FORMAT,
            RejectReason.BAD_JSON, RejectReason.MISSING_FIELD, RejectReason.BAD_ENUM, RejectReason.BAD_TYPE, RejectReason.CARDINALITY,
            RejectReason.BAD_AVRO, RejectReason.INTERNAL_ERROR);
    private static final int MAX_KIND_LENGTH = 40;

    private final MeterRegistry registry;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    public PipelineMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** For tests and replay runs that do not export metrics. */
    public static PipelineMetrics discarding() {
        return new PipelineMetrics(new SimpleMeterRegistry());
    }

    public MeterRegistry registry() {
        return registry;
    }

    /** The severities each alert type can have (docs/contract.md, "Alert types"), for the series registered at zero. */
    static final Map<String, List<String>> ALERT_SEVERITIES = Map.ofEntries(
            Map.entry("correlated_failure", List.of("warning", "critical")),
            Map.entry("zonal_failure", List.of("error")),
            Map.entry("health_latency_headroom", List.of("warning", "critical")),
            Map.entry("health_check_config_risk", List.of("warning", "critical")),
            Map.entry("replacement_churn", List.of("critical")),
            Map.entry("socket_slot_exhaustion", List.of("warning", "critical")),
            Map.entry("client_flood", List.of("error")),
            Map.entry("fail_open_routing", List.of("critical")),
            Map.entry("dns_failover", List.of("warning")),
            Map.entry("no_healthy_targets", List.of("critical")),
            Map.entry("gray_failure", List.of("warning", "error")),
            Map.entry("telemetry_gap", List.of("error")));

    /**
     * Registers at zero the per-source outcome counters, the late and behind-a-step record counters of each monitor
     * and the alert counters of every type, severity and status docs/contract.md gives.
     */
    public PipelineMetrics initialize(Collection<String> sources, Collection<String> monitors) {
        ALERT_SEVERITIES.forEach((type, severities) -> {
            for (String severity : severities) {
                alertCounter(type, severity, "firing");
                alertCounter(type, severity, "resolved");
            }
        });
        for (String source : sources) {
            for (String outcome : new String[] {"parsed", "rejected", "skipped"}) {
                records(source, outcome);
            }
        }
        monitors.forEach(this::lateCounter);
        monitors.forEach(this::behindCounter);
        monitors.forEach(this::silentCounter);
        for (String source : sources) {
            processingErrorCounter("ingest-" + source);
        }
        for (String monitor : monitors) {
            processingErrorCounter("monitor-" + monitor);
            newerVersionCounter("monitor-" + monitor, "repartition");
            newerVersionCounter("monitor-" + monitor, "clock");
            newerVersionCounter("monitor-" + monitor, "state");
        }
        for (String source : sources) {
            newerVersionCounter("ingest-" + source, "pending");
        }
        return this;
    }

    public void parsed(String source) {
        records(source, "parsed").increment();
    }

    /** The parsed-records counter of {@code source}, for callers that count every record (no lookup each time). */
    public Counter parsedCounter(String source) {
        return records(source, "parsed");
    }

    public void rejected(String source, String reason) {
        records(source, "rejected").increment();
        counter(REJECTED, "Input records rejected (dead-lettered), by reason", "source", source,
                "reason", boundedReason(reason)).increment();
    }

    public void skipped(String source, String kind) {
        records(source, "skipped").increment();
        counter(SKIPPED, "Known input lines with nothing to measure (e.g. HAProxy admin messages), by kind",
                "source", source, "kind", boundedKind(kind)).increment();
    }

    /** A record older than its monitor's clock minus the grace period. */
    public void late(String monitor) {
        lateCounter(monitor).increment();
    }

    /**
     * A record within the grace period that reached its key after an evaluation step later than it
     * had run: that step judged the key without it, as replay never does.
     */
    public void behind(String monitor) {
        behindCounter(monitor).increment();
    }

    /**
     * An input partition that {@code monitor} stopped waiting for after window.silent-timeout without
     * a report: its steps from then on are judged without that partition.
     */
    public void upstreamSilent(String monitor) {
        silentCounter(monitor).increment();
    }

    private Counter silentCounter(String monitor) {
        return counter(UPSTREAMS_SILENT, "Input partitions a monitor task stopped waiting for after window.silent-timeout"
                + " without a report from their ingest (its task gone, or started that late)", "monitor", monitor);
    }

    /**
     * A record, a key's step or a punctuation that threw in {@code stage} (ingest-&lt;source&gt; or
     * monitor-&lt;kind&gt;, the processor's name): skipped and dead-lettered instead of replacing the thread.
     */
    public void processingError(String stage) {
        processingErrorCounter(stage).increment();
    }

    private Counter processingErrorCounter(String stage) {
        return counter(PROCESSING_ERRORS, "Records or keys whose processing threw: skipped and dead-lettered, by stage",
                "stage", stage);
    }

    /**
     * A record dead-lettered because it named one more {@code kind} (target_group, target, host,
     * frontend) than its limit allows.
     */
    public void cardinalityRejected(String kind) {
        counter(CARDINALITY_REJECTED, "Records dead-lettered (reason cardinality) for naming one more target group, target,"
                + " host or frontend than its limit (limits.*) allows", "kind", kind).increment();
    }

    /**
     * A record a newer release wrote (a kind or schema version this release does not know), found
     * in {@code heldIn} (one of {@link #NEWER_VERSION_PLACES}) by {@code stage}, or a record refused
     * because its key's state is a newer release's (held_in state): dead-lettered with reason
     * newer_version; a rolling upgrade or a rollback is under way.
     */
    public void newerVersion(String stage, String heldIn) {
        newerVersionCounter(stage, heldIn).increment();
    }

    private Counter newerVersionCounter(String stage, String heldIn) {
        return counter(NEWER_VERSION, "Internal records a newer hcwatch wrote, which this one cannot read, and records for"
                + " keys whose state it wrote: dead-lettered (reason newer_version), by stage and where they were"
                + " (repartition, clock, pending, state)", "stage", stage,
                "held_in", heldIn);
    }

    /** A key that had sent nothing for state.idle-timeout was deleted from its monitor's store. */
    public void forgotten(String monitor) {
        counter(KEYS_DELETED, "Keys deleted from a monitor's state store (and changelog) after state.idle-timeout without input",
                "monitor", monitor).increment();
    }

    public void alert(String type, String severity, String status) {
        alertCounter(type, severity, status).increment();
    }

    private Counter alertCounter(String type, String severity, String status) {
        return counter(ALERTS, "Alert notifications published (firing, re-notified or resolved)",
                "type", type, "severity", severity, "status", status);
    }

    private Counter records(String source, String outcome) {
        return counter(RECORDS, "Input records read, by outcome: parsed, rejected (to the DLQ) or skipped",
                "source", source, "outcome", outcome);
    }

    private Counter lateCounter(String monitor) {
        return counter(LATE, "Records later than the grace period (still applied to per-target state, past windows ignore them)", "monitor", monitor);
    }

    private Counter behindCounter(String monitor) {
        return counter(BEHIND, "Records within the grace period applied after an evaluation step later than them had run",
                "monitor", monitor);
    }

    static String boundedReason(String reason) {
        String r = reason == null ? "" : reason.toLowerCase(Locale.ROOT);
        return KNOWN_REASONS.contains(r) ? r : "other";
    }

    /** Skip kinds are short words from the parsers; anything that does not look like one is {@code other}. */
    static String boundedKind(String kind) {
        if (kind == null || kind.isEmpty() || kind.length() > MAX_KIND_LENGTH || !kind.matches("[a-z_]+")) {
            return "other";
        }
        return kind;
    }

    private Counter counter(String name, String help, String... tags) {
        String key = name + "\u0000" + String.join("\u0000", tags);
        return counters.computeIfAbsent(key, k -> Counter.builder(name).description(help).tags(tags).register(registry));
    }
}
