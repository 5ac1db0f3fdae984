package io.hcwatch.topology;

import io.hcwatch.avro.internal.ClientTraffic;
import io.hcwatch.avro.internal.HaproxyTraffic;
import io.hcwatch.avro.internal.TargetTraffic;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.input.CheckBatch;
import io.hcwatch.input.ClientSummary;
import io.hcwatch.input.FrontendSummary;
import io.hcwatch.input.Summary;
import io.hcwatch.input.TargetSummary;
import io.hcwatch.traffic.TrafficCombiner;
import io.hcwatch.topology.Routed.Destination;
import java.util.List;

/**
 * Where a released second goes: each summary to the monitor keyed by what it summarises (target
 * group, HAProxy host, client scope), check batches to the fleet monitor, and a heartbeat of the
 * feed each came from.
 */
final class SummaryRoutes implements Summarising.Release, Summary.Cases<Void> {

    private final Source source;
    private final Outbox out;
    private final FeedHeartbeats heartbeats;

    SummaryRoutes(Source source, Outbox out, FeedHeartbeats heartbeats) {
        this.source = source;
        this.out = out;
        this.heartbeats = heartbeats;
    }

    @Override
    public void summary(Summary summary) {
        summary.accept(this);
    }

    @Override
    public void checks(List<HealthCheckResult> batch) {
        CheckBatch checks = new CheckBatch(batch);
        long time = checks.eventTime();
        HealthCheckResult first = batch.get(0);
        out.send(Destination.FLEET, first.getTargetGroup(), checks, time);
        if (source == Source.HEALTH || source == Source.ALB_HEALTH) {
            // ALB's health-check log lines name the target group only
            heartbeats.seen(first.getLb() != null ? first.getLb() : first.getTargetGroup(), time);
        }
    }

    @Override
    public Void targetSummary(TargetSummary summary) {
        TargetTraffic t = summary.traffic();
        out.send(Destination.FLEET, t.getTargetGroup(), summary, t.getBucketStart());
        if (source == Source.ALB) {
            heartbeats.seen(t.getLb(), t.getBucketStart());
        }
        return null;
    }

    @Override
    public Void frontendSummary(FrontendSummary summary) {
        HaproxyTraffic h = summary.traffic();
        out.send(Destination.HOST, h.getHost(), summary, h.getBucketStart());
        if (!TrafficCombiner.UNNAMED_HOST.equals(h.getHost())) {
            // the placeholder is no feed: lines read before the collector's first poll named the host would leave it silent
            heartbeats.seen(h.getHost(), h.getBucketStart());
        }
        return null;
    }

    @Override
    public Void clientSummary(ClientSummary summary) {
        ClientTraffic c = summary.traffic();
        out.send(Destination.FLOOD, c.getPlatform() + "/" + c.getScope(), summary, c.getBucketStart());
        return null;
    }
}
