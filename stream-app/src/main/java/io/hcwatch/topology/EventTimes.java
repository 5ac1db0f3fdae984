package io.hcwatch.topology;

import io.hcwatch.avro.internal.ClientTraffic;
import io.hcwatch.avro.internal.HaproxyTraffic;
import io.hcwatch.avro.internal.TargetTraffic;
import io.hcwatch.avro.internal.TargetSeen;
import io.hcwatch.avro.internal.UpstreamProgress;
import io.hcwatch.avro.v1.BackendEvent;
import io.hcwatch.avro.v1.HaproxyStats;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import java.util.Arrays;
import java.util.List;

/** The event time of what an envelope carries (a batch: its latest check): the telemetry's own timestamp, never the wall clock. */
final class EventTimes {

    private EventTimes() {
    }

    /** The event time of each record an envelope carries: one, or each check of a batch in order. */
    static long[] each(Envelope e) {
        if (e.kind() != Envelope.Kind.HEALTH_CHECKS) {
            return new long[] {of(e)};
        }
        List<?> checks = (List<?>) e.record();
        long[] times = new long[checks.size()];
        for (int i = 0; i < times.length; i++) {
            times[i] = ((HealthCheckResult) checks.get(i)).getTs().toEpochMilli();
        }
        return times;
    }

    static long of(Envelope e) {
        return switch (e.kind()) {
            case HEALTH_CHECK -> ((HealthCheckResult) e.record()).getTs().toEpochMilli();
            case BACKEND_EVENT -> ((BackendEvent) e.record()).getTs().toEpochMilli();
            case LB_CONFIG -> ((LbConfig) e.record()).getTs().toEpochMilli();
            case TARGET_TRAFFIC -> ((TargetTraffic) e.record()).getBucketStart();
            case HAPROXY_TRAFFIC -> ((HaproxyTraffic) e.record()).getBucketStart();
            case CLIENT_TRAFFIC -> ((ClientTraffic) e.record()).getBucketStart();
            case HEALTH_CHECKS -> Arrays.stream(each(e)).max().orElse(Long.MIN_VALUE);
            case PROGRESS -> ((UpstreamProgress) e.record()).getTime();
            case TARGET_SEEN -> ((TargetSeen) e.record()).getTs();
            case HAPROXY_STATS -> ((HaproxyStats) e.record()).getTs().toEpochMilli();
        };
    }
}
