package io.hcwatch.replay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A health-check timeout cut below real latency on an ALB target group whose Auto Scaling group
 * drains each target some seconds after the ALB marks it unhealthy and launches a cold
 * replacement, written as the files AWS would give: ALB health-check log lines, ALB access-log
 * lines (the layout of AWS's published example entry) and the target group's LbConfig. Its own
 * model, independent of the simulator: every target is checked every interval at its own phase;
 * a check's latency grows with the load each healthy target carries (the traffic of the ones that
 * left moves onto the rest) and is longer while a replacement is cold; the ALB marks a target
 * unhealthy after {@code UNHEALTHY_THRESHOLD} failures in a row and healthy after
 * {@code HEALTHY_THRESHOLD} passes; a draining target is no longer checked. What happened (when the
 * correlated-failure rule first held, when the pool had one healthy target left, when none) is
 * kept by the model as it runs, not read back from hcwatch.
 */
final class AutoscaledTimeoutCut {

    static final String TARGET_GROUP = "web-prod";
    static final String LB = "app/web-prod/5d1e2c0a9b8f7e6d";
    private static final String ARN = "arn:aws:elasticloadbalancing:us-east-2:111122223333:targetgroup/" + TARGET_GROUP
            + "/7a3b9c1d2e4f5061";
    private static final String[] ZONES = {"us-east-2a", "us-east-2b", "us-east-2c"};
    static final long INTERVAL_MS = 10_000;
    private static final int HEALTHY_THRESHOLD = 3;
    private static final int UNHEALTHY_THRESHOLD = 2;
    private static final long WINDOW_MS = 60_000;

    /**
     * @param targets      the Auto Scaling group's desired capacity
     * @param drainAfterMs how long after the ALB marks a target unhealthy the Auto Scaling group drains it
     * @param bootMs       from a drain to its replacement's registration
     * @param medianMs     median check latency at the normal load per target (the cut is to 2 s)
     * @param config       what the target group's LbConfig says
     * @param seed         the dice
     */
    record Params(int targets, long drainAfterMs, long bootMs, double medianMs, Config config, long seed) {
    }

    /** What is known of the target group's configuration besides its logs. */
    enum Config {
        /** as collect alb publishes it: the registered count and the check settings (at the start and at the cut), the zones */
        FULL,
        /** the zones' subnets only: no registered count, no check settings */
        ZONES,
        /** no LbConfig: the logs alone */
        NONE
    }

    /** Written files and what the model saw happen, in event time. */
    record Run(Path albHealth, Path alb, Path config, long start, long cut, long end, int needed,
               long conditionAt, long oneHealthyAt, long noneHealthyAt) {
    }

    private static final class Target {
        final String address;
        final String zone;
        final long phase;
        final long registeredAt;
        String state = "initial";
        int passes;
        int failures;
        long unhealthyAt = -1;
        long drainedAt = -1;
        long lastFailureAt = -1;
        boolean everHealthy;

        Target(String address, String zone, long phase, long registeredAt) {
            this.address = address;
            this.zone = zone;
            this.phase = phase;
            this.registeredAt = registeredAt;
        }

        boolean serving() {
            return drainedAt < 0;
        }
    }

    private record Pending(Target target, long completedAt, double latencyMs, boolean failed) {
    }

    private final Params p;
    private final SplittableRandom dice;
    private final List<Target> all = new ArrayList<>();
    private final List<Long> launches = new ArrayList<>();
    private int nextHost = 10;

    private AutoscaledTimeoutCut(Params p) {
        this.p = p;
        this.dice = new SplittableRandom(p.seed());
    }

    static Run write(Params p, Path dir) {
        return new AutoscaledTimeoutCut(p).run(dir);
    }

    private Run run(Path dir) {
        long start = Instant.parse("2026-11-19T18:00:00Z").toEpochMilli();
        long cut = start + 5 * 60_000;
        long end = cut + 15 * 60_000;
        for (int i = 0; i < p.targets(); i++) {
            Target t = launch(i % ZONES.length, start - 3_600_000);
            t.state = "healthy";
            t.everHealthy = true;
        }
        int needed = Math.max(3, (int) Math.ceil(0.3 * p.targets() - 1e-9));
        List<String> checks = new ArrayList<>();
        List<String> requests = new ArrayList<>();
        long conditionAt = -1;
        long oneHealthyAt = -1;
        long noneHealthyAt = -1;
        int launched = 0;
        List<Pending> pending = new ArrayList<>();
        for (long now = start; now < end; now += 1_000) {
            long timeout = now < cut ? 5_000 : 2_000;
            for (int i = launched; i < launches.size(); i++) {
                if (launches.get(i) <= now) {
                    launch(dice.nextInt(ZONES.length), launches.get(i));
                    launched++;
                }
            }
            int healthyBefore = healthy();
            for (Target t : new ArrayList<>(all)) {
                if (!t.serving() || now < t.registeredAt || Math.floorMod(now - t.phase, INTERVAL_MS) != 0) {
                    continue;
                }
                double latency = Math.min(latency(t, now, healthyBefore), timeout);
                pending.add(new Pending(t, now + (long) latency, latency, latency >= timeout));
            }
            // the ALB learns a check's result when it completes, and logs it then
            pending.sort(Comparator.comparingLong(Pending::completedAt));
            while (!pending.isEmpty() && pending.get(0).completedAt() <= now) {
                Pending c = pending.remove(0);
                Target t = c.target();
                long at = c.completedAt();
                check(t, at, c.failed());
                // a pass names its reason: a target still marked unhealthy logs its state beside a 200, and
                // "unhealthy 200 -" alone reads as a failed check (PARSERS.md: the status field is ambiguous)
                checks.add(String.format(Locale.ROOT, "http %s %.3f %s:8080 %s %s %s %s", micros(at), c.latencyMs() / 1000.0,
                        t.address, ARN, t.state, c.failed() ? "-" : "200", c.failed() ? "Target.Timeout" : "ResponseCodeMatched"));
                if (at < cut) {
                    continue;
                }
                if (conditionAt < 0 && failingWithin(at) >= needed) {
                    conditionAt = at;
                }
                int healthy = healthy();
                if (oneHealthyAt < 0 && healthy <= 1) {
                    oneHealthyAt = at;
                }
                if (noneHealthyAt < 0 && healthy == 0) {
                    noneHealthyAt = at;
                }
            }
            for (Target t : all) {
                if (t.serving() && "unhealthy".equals(t.state) && now - t.unhealthyAt >= p.drainAfterMs()) {
                    t.drainedAt = now;
                    launches.add(now + p.bootMs());
                }
            }
            requests.addAll(traffic(now));
        }
        try {
            Files.createDirectories(dir);
            Path albHealth = dir.resolve("alb-health.log");
            Path alb = dir.resolve("alb.log");
            Path config = dir.resolve("config.jsonl");
            // every line starts "http " and a fixed-width time
            checks.sort(null);
            Files.write(albHealth, checks);
            Files.write(alb, requests);
            Files.write(config, switch (p.config()) {
                case FULL -> List.of(config(start - 60_000, 5_000), config(cut, 2_000));
                case ZONES -> List.of(config(start - 60_000, null));
                case NONE -> List.<String>of();
            });
            return new Run(albHealth, alb, config, start, cut, end, needed, conditionAt, oneHealthyAt, noneHealthyAt);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Target launch(int zone, long at) {
        String address = "10.0." + (zone + 1) + "." + nextHost++;
        Target t = new Target(address, ZONES[zone], dice.nextLong(INTERVAL_MS / 1_000) * 1_000, at);
        all.add(t);
        return t;
    }

    /**
     * Lognormal around the median, scaled by the load on each healthy target (every target
     * serves an equal share while all are healthy) and by a cold start that fades over three
     * minutes; a failing-open ALB spreads the load over every registered target.
     */
    private double latency(Target t, long now, int healthy) {
        int serving = (int) all.stream().filter(Target::serving).filter(x -> now >= x.registeredAt).count();
        int carrying = healthy > 0 ? healthy : Math.max(1, serving);
        double load = Math.min(4.0, (double) p.targets() / carrying);
        double coldFor = Math.max(0, 1 - (now - t.registeredAt) / 180_000.0);
        double cold = 1 + 0.8 * coldFor;
        double gaussian = gaussian();
        return p.medianMs() * Math.sqrt(load) * cold * Math.exp(0.15 * gaussian);
    }

    private double gaussian() {
        // Box-Muller, from the same dice
        double u1 = 1 - dice.nextDouble();
        double u2 = dice.nextDouble();
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }

    private static void check(Target t, long now, boolean failed) {
        if (failed) {
            t.failures++;
            t.passes = 0;
            t.lastFailureAt = now;
            if (t.failures >= UNHEALTHY_THRESHOLD && !"unhealthy".equals(t.state)) {
                t.state = "unhealthy";
                t.unhealthyAt = now;
            }
        } else {
            t.passes++;
            t.failures = 0;
            if (t.passes >= HEALTHY_THRESHOLD) {
                t.state = "healthy";
                t.everHealthy = true;
            }
        }
    }

    private int healthy() {
        return (int) all.stream().filter(t -> t.serving() && "healthy".equals(t.state)).count();
    }

    /**
     * Distinct targets that failed a check within the window and have not recovered since (fewer
     * than the healthy threshold's passes in a row: a pass between two timeouts does not make a
     * target well), drained ones included; a replacement counts once the ALB has marked it unhealthy.
     */
    private int failingWithin(long now) {
        int n = 0;
        for (Target t : all) {
            boolean established = t.everHealthy || t.unhealthyAt >= 0;
            if (t.passes < HEALTHY_THRESHOLD && t.lastFailureAt > now - WINDOW_MS && established) {
                n++;
            }
        }
        return n;
    }

    /** One request a second to each healthy target, or to every registered one while the ALB fails open. */
    private List<String> traffic(long now) {
        List<String> out = new ArrayList<>();
        List<Target> to = all.stream().filter(t -> t.serving() && "healthy".equals(t.state)).toList();
        if (to.isEmpty()) {
            to = all.stream().filter(t -> t.serving() && now >= t.registeredAt).toList();
        }
        int k = 0;
        for (Target t : to) {
            long sent = now + 100 + (k++ % 900);
            boolean ok = "healthy".equals(t.state);
            out.add(String.format(Locale.ROOT, "https %s %s 198.51.100.%d:%d %s:8080 0.000 %.3f 0.000 %d %d 120 512"
                            + " \"GET https://web.example.com:443/api/items HTTP/1.1\" \"curl/8.5.0\" ECDHE-RSA-AES128-GCM-SHA256"
                            + " TLSv1.2 %s \"Root=1-%08x-%024x\" \"web.example.com\" \"-\" 0 %s \"forward\" \"-\" \"-\""
                            + " \"%s:8080\" \"%d\" \"-\" \"-\"",
                    micros(sent), LB, 1 + k % 200, 40_000 + k, t.address, ok ? 0.05 : 2.5, ok ? 200 : 502, ok ? 200 : 502,
                    ARN, now / 1000, k, micros(now), t.address, ok ? 200 : 502));
        }
        return out;
    }

    private String config(long at, Integer timeoutMs) {
        StringBuilder cidrs = new StringBuilder();
        for (int z = 0; z < ZONES.length; z++) {
            cidrs.append(z > 0 ? "," : "").append('"').append(ZONES[z]).append("\":[\"10.0.").append(z + 1).append(".0/24\"]");
        }
        String counted = timeoutMs == null ? "" : ",\"registered_targets\":" + p.targets()
                + ",\"health_check\":{\"path\":\"/health\",\"interval_ms\":" + INTERVAL_MS + ",\"timeout_ms\":" + timeoutMs
                + ",\"healthy_threshold\":" + HEALTHY_THRESHOLD + ",\"unhealthy_threshold\":" + UNHEALTHY_THRESHOLD + "}";
        return "{\"kind\":\"target_group\",\"id\":\"" + TARGET_GROUP + "\",\"ts\":\"" + Instant.ofEpochMilli(at) + "\",\"lb\":\"" + LB
                + "\",\"cross_zone\":true" + counted + ",\"zone_cidrs\":{" + cidrs + "}}";
    }

    private static String micros(long millis) {
        Instant i = Instant.ofEpochMilli(millis);
        return String.format(Locale.ROOT, "%sT%s.%06dZ", i.toString().substring(0, 10), i.toString().substring(11, 19),
                (millis % 1000) * 1000);
    }
}
