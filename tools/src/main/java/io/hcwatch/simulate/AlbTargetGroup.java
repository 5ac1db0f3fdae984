package io.hcwatch.simulate;

import java.util.ArrayList;
import java.util.List;

/**
 * An ALB target group: its settings (health check, cross-zone, the target-group-health
 * thresholds), its targets, how it reports health, the service behind it, and the Auto Scaling
 * group that replaces its instances.
 */
final class AlbTargetGroup {

    /** How the group's health checks reach hcwatch. */
    enum Feed {
        /** HealthCheckResult JSON from a producer that adds zone, check settings and registration time. */
        HEALTH_JSON,
        /** Raw ALB health-check log lines (target ip:port, no zone). */
        ALB_HEALTH_LOG
    }

    final String name;
    final String arn;
    final Feed feed;
    final int subnet;
    final int port;
    final List<AlbTarget> targets = new ArrayList<>();

    CheckSpec check;
    boolean crossZone = true;
    Integer routingCount = 1;
    Double routingPercent;
    Integer dnsCount = 1;
    Double dnsPercent;
    int registeredTargets;

    /** Share of the ALB's requests its listener rule sends here. */
    double trafficShare;
    /** Requests per second one target serves at full utilization. */
    double capacity;
    double requestBaseMs = 45;
    /** Median /health latency of an idle, warm target. */
    double checkBaseMs = 25;
    double checkSigma = 0.25;
    double stressSigma = 0.12;
    long stressTauMs = 45_000;
    /** /health queries the database (a deep check). */
    boolean deepCheck;
    boolean dependencyDown;
    /** Per zone: share of checks and requests lost to a gray failure (0 = fine). */
    double[] gray;
    /** Per zone: share of requests answered 502 by a fault the health check does not reach (0 = fine). */
    double[] requestErrors;
    /** Per zone: share of requests that stall for {@code stallMs} or so, likewise unseen by the check. */
    double[] requestStalls;
    long stallMs = 4_000;

    boolean asgReplacesUnhealthy;
    long asgGraceMs = 90_000;
    long asgUnhealthyForMs = 20_000;
    int asgMaxInFlight = 4;
    int launching;
    long launchMinMs = 50_000;
    long launchMaxMs = 110_000;
    long deregistrationDelayMs = 30_000;
    /** A new instance answers this many times slower at first, decaying with coldTauMs. */
    double coldFactor = 4;
    long coldTauMs = 60_000;

    final String domain;
    final int rulePriority;
    final AlbModel.Route[] routes;
    final double routeWeight;

    AlbTargetGroup(String name, String arn, Feed feed, int subnet, int port, int zones, String domain, int rulePriority,
                   AlbModel.Route[] routes) {
        this.name = name;
        this.arn = arn;
        this.feed = feed;
        this.subnet = subnet;
        this.port = port;
        this.gray = new double[zones];
        this.requestErrors = new double[zones];
        this.requestStalls = new double[zones];
        this.domain = domain;
        this.rulePriority = rulePriority;
        this.routes = routes;
        double total = 0;
        for (AlbModel.Route r : routes) {
            total += r.weight();
        }
        this.routeWeight = total;
    }

    List<AlbTarget> active() {
        List<AlbTarget> out = new ArrayList<>(targets.size());
        for (AlbTarget t : targets) {
            if (!t.draining) {
                out.add(t);
            }
        }
        return out;
    }

    int healthy() {
        int n = 0;
        for (AlbTarget t : targets) {
            if (!t.draining && t.healthy()) {
                n++;
            }
        }
        return n;
    }

    /** Healthy targets needed among {@code registered}: max(count, ceil(percent x registered)), as ALB computes it. */
    static int required(Integer count, Double percent, int registered) {
        int byCount = count == null ? 0 : count;
        int byPercent = percent == null || percent <= 0 ? 0 : (int) Math.ceil(percent / 100.0 * registered - 1e-9);
        return Math.max(byCount, byPercent);
    }

    boolean failsOpen(int healthy, int registered) {
        return registered > 0 && healthy < required(routingCount, routingPercent, registered);
    }

    boolean leavesDns(int healthy, int registered) {
        return registered > 0 && healthy < required(dnsCount, dnsPercent, registered);
    }
}
