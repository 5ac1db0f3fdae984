package io.hcwatch.topology;

import io.hcwatch.avro.internal.ClientTraffic;
import io.hcwatch.avro.internal.FeedSeen;
import io.hcwatch.avro.internal.HaproxyTraffic;
import io.hcwatch.avro.internal.TargetTraffic;
import io.hcwatch.avro.internal.TargetSeen;
import io.hcwatch.avro.internal.UpstreamProgress;
import io.hcwatch.avro.v1.BackendEvent;
import io.hcwatch.avro.v1.HaproxyStats;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;

/**
 * What travels on hcwatch's internal repartition topics: one of the records the monitors take,
 * or a batch of health checks of one target group, tagged with its kind. Internal topics carry
 * plain Avro binary behind a one-byte kind (no registry): both ends are this application, at the
 * same version.
 *
 * @param record a generated Avro record, or for {@link Kind#HEALTH_CHECKS} a list of them
 */
public record Envelope(Kind kind, Object record, String upstream) {

    /** The record types a monitor can receive; the byte is the tag on the wire. */
    public enum Kind {
        HEALTH_CHECK(1, HealthCheckResult.getClassSchema()),
        BACKEND_EVENT(2, BackendEvent.getClassSchema()),
        LB_CONFIG(3, LbConfig.getClassSchema()),
        TARGET_TRAFFIC(4, TargetTraffic.getClassSchema()),
        HAPROXY_TRAFFIC(5, HaproxyTraffic.getClassSchema()),
        CLIENT_TRAFFIC(6, ClientTraffic.getClassSchema()),
        /** Health checks of one target group, in the order they were read: one record instead of one each. */
        HEALTH_CHECKS(7, Schema.createArray(HealthCheckResult.getClassSchema())),
        /** Not telemetry: the upstream's report of how far it has got (see {@link io.hcwatch.time.MonitorClock}). */
        PROGRESS(8, UpstreamProgress.getClassSchema()),
        /** A target named by a health check that did not parse: known to exist, state unknown. */
        TARGET_SEEN(9, TargetSeen.getClassSchema()),
        /** One poll of one HAProxy host by the collector, as published. */
        HAPROXY_STATS(10, HaproxyStats.getClassSchema()),
        /** A feed (source and host or load balancer) sent data: for the feed monitor. */
        FEED_SEEN(11, FeedSeen.getClassSchema());

        final byte tag;
        final Schema schema;

        Kind(int tag, Schema schema) {
            this.tag = (byte) tag;
            this.schema = schema;
        }

        /**
         * The version of this kind's schema this release writes: 1 unless it changed, and then one
         * more per change, with each earlier one kept as
         * {@code internal-schema-history/<Record>/v<n>.avsc} so that what an earlier release left in
         * a pending store or on a repartition topic is still read after an upgrade.
         */
        int version() {
            return switch (this) {
                case HAPROXY_TRAFFIC, TARGET_TRAFFIC, LB_CONFIG -> 2;
                default -> 1;
            };
        }

        static Kind ofTag(byte tag) {
            for (Kind k : values()) {
                if (k.tag == tag) {
                    return k;
                }
            }
            throw new IllegalArgumentException("unknown envelope kind " + tag);
        }
    }

    public static Envelope of(SpecificRecord record) {
        return of(record, null);
    }

    /**
     * @param upstream the input partition the record came through (e.g. "health-3"): monitors keep
     *                 time per upstream, so a partition that lags behind the others is not mistaken
     *                 for targets that went silent
     */
    public static Envelope of(SpecificRecord record, String upstream) {
        return new Envelope(kindOf(record), record, upstream);
    }

    /** Health checks of one target group from one input partition, in the order they were read. */
    public static Envelope checks(List<HealthCheckResult> checks, String upstream) {
        return new Envelope(Kind.HEALTH_CHECKS, checks, upstream);
    }

    /** An upstream's report that it has sent on everything up to {@code time}. */
    public static Envelope progress(String upstream, long time, boolean idle) {
        return new Envelope(Kind.PROGRESS, new UpstreamProgress(time, idle), upstream);
    }

    /** The records carried: the batch's checks in order, or the one record. */
    public List<?> records() {
        return kind == Kind.HEALTH_CHECKS ? (List<?>) record : List.of(record);
    }

    public boolean isProgress() {
        return kind == Kind.PROGRESS;
    }

    private static Kind kindOf(SpecificRecord record) {
        if (record instanceof HealthCheckResult) {
            return Kind.HEALTH_CHECK;
        } else if (record instanceof BackendEvent) {
            return Kind.BACKEND_EVENT;
        } else if (record instanceof LbConfig) {
            return Kind.LB_CONFIG;
        } else if (record instanceof TargetTraffic) {
            return Kind.TARGET_TRAFFIC;
        } else if (record instanceof HaproxyTraffic) {
            return Kind.HAPROXY_TRAFFIC;
        } else if (record instanceof ClientTraffic) {
            return Kind.CLIENT_TRAFFIC;
        } else if (record instanceof TargetSeen) {
            return Kind.TARGET_SEEN;
        } else if (record instanceof HaproxyStats) {
            return Kind.HAPROXY_STATS;
        } else if (record instanceof FeedSeen) {
            return Kind.FEED_SEEN;
        }
        throw new IllegalArgumentException("no envelope kind for " + record.getClass().getName());
    }
}
