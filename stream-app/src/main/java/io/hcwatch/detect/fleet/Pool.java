package io.hcwatch.detect.fleet;

import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.avro.v1.Thresholds;

/**
 * What a target group is part of and how its load balancer treats it: the load balancer, the
 * platform (alb or haproxy, once known) and, for an ALB, the target-group-health thresholds and
 * cross-zone setting from its LbConfig (AWS's defaults until one arrives).
 */
public final class Pool {
    public String lb;
    /** alb or haproxy, once known. */
    public String platform;
    public Boolean crossZone;
    /**
     * Targets registered: LbConfig's count, then followed as targets come and go until the next
     * LbConfig (see {@link #membersChanged}). Never below the targets hcwatch has seen, so what
     * exceeds them are targets registered but never seen.
     */
    public Integer configuredTargets;
    public Integer routingCount;
    public Double routingPercent;
    public Integer dnsCount;
    public Double dnsPercent;
    public boolean configKnown;

    public Pool() {
    }

    /**
     * Learns the load balancer and platform from a record, keeping the first ones seen. Names are
     * interned: thousands of target groups share a few load balancers, and each record brings its
     * own copy of the name.
     */
    void seen(String recordLb, String recordPlatform) {
        if (lb == null && recordLb != null) {
            lb = recordLb.intern();
        }
        if (platform == null && recordPlatform != null) {
            platform = recordPlatform.intern();
        }
    }

    void configure(LbConfig c) {
        configKnown = true;
        if (platform == null) {
            platform = "alb";
        }
        if (c.getLb() != null) {
            lb = c.getLb().intern();
        }
        crossZone = c.getCrossZone();
        configuredTargets = c.getRegisteredTargets();
        Thresholds routing = c.getUnhealthyStateRouting();
        routingCount = routing == null ? null : routing.getMinHealthyCount();
        routingPercent = routing == null ? null : routing.getMinHealthyPercent();
        Thresholds dns = c.getDnsFailover();
        dnsCount = dns == null ? null : dns.getMinHealthyCount();
        dnsPercent = dns == null ? null : dns.getMinHealthyPercent();
    }

    /**
     * The registry went from {@code before} to {@code after} members. A member that left (drained,
     * deregistered, silent) is no longer registered: without this, LbConfig's count, read once,
     * would keep every target an Auto Scaling group replaced as "registered but never seen", an
     * unknown that could be healthy, and the pool would never look below a threshold however few
     * targets remained healthy. A first sighting beyond the count is a new registration; a first
     * sighting within it is one of the registered targets not heard from yet.
     */
    void membersChanged(int before, int after) {
        if (configuredTargets == null || configuredTargets <= 0 || before == after) {
            return;
        }
        configuredTargets = after < before ? Math.max(after, configuredTargets - (before - after)) : Math.max(configuredTargets, after);
    }

    /** ALB applies its thresholds per zone when cross-zone is off; on (AWS's default) when unknown. */
    public boolean crossZoneOn() {
        return crossZone == null || crossZone;
    }

    public FleetThresholds routingThresholds() {
        return routingCount == null && routingPercent == null
                ? FleetThresholds.AWS_DEFAULT : new FleetThresholds(routingCount, routingPercent);
    }

    public FleetThresholds dnsThresholds() {
        return dnsCount == null && dnsPercent == null
                ? FleetThresholds.AWS_DEFAULT : new FleetThresholds(dnsCount, dnsPercent);
    }

    public boolean isAlb() {
        return "alb".equals(platform);
    }

    public boolean isHaproxy() {
        return "haproxy".equals(platform);
    }

    /** Where the thresholds come from, for alert details. */
    public String configSource() {
        return configKnown ? "LbConfig" : "assumed AWS defaults (count 1, percentage off, cross-zone on)";
    }
}
