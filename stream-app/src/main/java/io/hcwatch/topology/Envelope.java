package io.hcwatch.topology;

import io.hcwatch.avro.internal.ClientTraffic;
import io.hcwatch.avro.internal.FeedSeen;
import io.hcwatch.avro.internal.HaproxyTraffic;
import io.hcwatch.avro.internal.TargetSeen;
import io.hcwatch.avro.internal.TargetTraffic;
import io.hcwatch.avro.internal.UpstreamProgress;
import io.hcwatch.avro.v1.BackendEvent;
import io.hcwatch.avro.v1.HaproxyStats;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.input.BackendNotice;
import io.hcwatch.input.Check;
import io.hcwatch.input.CheckBatch;
import io.hcwatch.input.ClientSummary;
import io.hcwatch.input.FeedHeartbeat;
import io.hcwatch.input.FromNewerRelease;
import io.hcwatch.input.FrontendSummary;
import io.hcwatch.input.LoadBalancerConfig;
import io.hcwatch.input.Payload;
import io.hcwatch.input.Poll;
import io.hcwatch.input.Progress;
import io.hcwatch.input.TargetSummary;
import io.hcwatch.input.Telemetry;
import io.hcwatch.input.UnreadableCheck;
import java.util.List;
import org.apache.avro.Schema;

/**
 * What travels on hcwatch's internal repartition topics, and what the pending and clock stores
 * keep: one {@link Payload}, tagged on the wire with its kind. Internal topics carry plain Avro
 * binary behind a one-byte kind (no registry): both ends are this application.
 *
 * @param upstream the input partition the record came through (e.g. "health-3"): monitors keep
 *                 time per upstream, so a partition that lags behind the others is not mistaken
 *                 for targets that went silent (null when not known, as in a pending store)
 */
public record Envelope(Payload payload, String upstream) {

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
                case HAPROXY_TRAFFIC, TARGET_TRAFFIC, LB_CONFIG, HAPROXY_STATS -> 2;
                default -> 1;
            };
        }

        /** The kind of {@code tag}, or null for one this release does not know (a newer release's). */
        static Kind ofTag(byte tag) {
            for (Kind k : values()) {
                if (k.tag == tag) {
                    return k;
                }
            }
            return null;
        }

        /** The payload of a record read with this kind's schema (Avro's reader gives back that kind's class). */
        @SuppressWarnings("unchecked")
        Payload payloadOf(Object avro) {
            return switch (this) {
                case HEALTH_CHECK -> new Check((HealthCheckResult) avro);
                case BACKEND_EVENT -> new BackendNotice((BackendEvent) avro);
                case LB_CONFIG -> new LoadBalancerConfig((LbConfig) avro);
                case TARGET_TRAFFIC -> new TargetSummary((TargetTraffic) avro);
                case HAPROXY_TRAFFIC -> new FrontendSummary((HaproxyTraffic) avro);
                case CLIENT_TRAFFIC -> new ClientSummary((ClientTraffic) avro);
                case HEALTH_CHECKS -> new CheckBatch((List<HealthCheckResult>) avro);
                case PROGRESS -> new Progress((UpstreamProgress) avro);
                case TARGET_SEEN -> new UnreadableCheck((TargetSeen) avro);
                case HAPROXY_STATS -> new Poll((HaproxyStats) avro);
                case FEED_SEEN -> new FeedHeartbeat((FeedSeen) avro);
            };
        }
    }

    public static Envelope of(Payload payload) {
        return new Envelope(payload, null);
    }

    /** An upstream's report that it has sent on everything up to {@code time}. */
    public static Envelope progress(String upstream, long time, boolean idle) {
        return new Envelope(new Progress(time, idle), upstream);
    }

    /** The kind on the wire; null for a record of a newer release, which is written back as it was read. */
    public Kind kind() {
        return payload.accept(KINDS);
    }

    /** The telemetry carried: what a monitor's clock holds and hands to its keys (progress reports go to the clock itself). */
    public Telemetry telemetry() {
        return payload.accept(TELEMETRY);
    }

    private static final Payload.Cases<Telemetry> TELEMETRY = new Payload.Cases<>() {
        @Override
        public Telemetry telemetry(Telemetry telemetry) {
            return telemetry;
        }

        @Override
        public Telemetry progress(Progress progress) {
            throw new IllegalStateException("a progress report carries no telemetry");
        }

        @Override
        public Telemetry fromNewerRelease(FromNewerRelease record) {
            throw new IllegalStateException("a record of a newer release is not read: " + record.why());
        }
    };

    private static final Payload.Cases<Kind> KINDS = new Payload.Cases<>() {
        @Override
        public Kind telemetry(Telemetry telemetry) {
            return telemetry.accept(TELEMETRY_KINDS);
        }

        @Override
        public Kind progress(Progress progress) {
            return Kind.PROGRESS;
        }

        @Override
        public Kind fromNewerRelease(FromNewerRelease record) {
            return null;
        }
    };

    private static final Telemetry.Cases<Kind> TELEMETRY_KINDS = new Telemetry.Cases<>() {
        @Override
        public Kind check(Check check) {
            return Kind.HEALTH_CHECK;
        }

        @Override
        public Kind checkBatch(CheckBatch batch) {
            return Kind.HEALTH_CHECKS;
        }

        @Override
        public Kind backendNotice(BackendNotice notice) {
            return Kind.BACKEND_EVENT;
        }

        @Override
        public Kind config(LoadBalancerConfig config) {
            return Kind.LB_CONFIG;
        }

        @Override
        public Kind targetSummary(TargetSummary summary) {
            return Kind.TARGET_TRAFFIC;
        }

        @Override
        public Kind frontendSummary(FrontendSummary summary) {
            return Kind.HAPROXY_TRAFFIC;
        }

        @Override
        public Kind clientSummary(ClientSummary summary) {
            return Kind.CLIENT_TRAFFIC;
        }

        @Override
        public Kind unreadableCheck(UnreadableCheck check) {
            return Kind.TARGET_SEEN;
        }

        @Override
        public Kind poll(Poll poll) {
            return Kind.HAPROXY_STATS;
        }

        @Override
        public Kind feedHeartbeat(FeedHeartbeat heartbeat) {
            return Kind.FEED_SEEN;
        }
    };
}
