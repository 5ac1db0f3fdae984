package io.hcwatch.simulate;

import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.parse.AlbHealthCheckLogFormat;
import io.hcwatch.parse.HealthCheckResultJson;
import io.hcwatch.parse.LbConfigJson;
import io.hcwatch.topology.Source;
import java.time.Duration;
import java.util.function.LongToDoubleFunction;

/**
 * The simulated estate: an ALB with its target groups and Auto Scaling groups, HAProxy hosts
 * with their frontends and backends, the clients of both, and the clock they share. Scenarios
 * configure it and schedule their incident on it; the models write what the real systems would
 * log, through the project's own formatters.
 */
final class World {

    static final String ACCOUNT = "111122223333";
    static final String REGION = "us-east-1";
    static final String LB = "app/prod-web/50dc6c495c0c9188";

    final ScenarioParams params;
    final Engine engine;
    final Dice trafficDice;
    final Dice checkDice;
    final Dice opsDice;
    final Dice haproxyDice;
    final Dice noiseDice;
    final AlbModel alb;
    final HaproxyModel haproxy;
    /** The AWS path: what the collector publishes, every check in ALB's health-check logs; null otherwise. */
    CollectorModel collector;
    /** HAProxy hosts whose log shipper (rsyslog) is stopped: they serve and log, nothing is shipped. */
    final java.util.Set<String> stoppedShippers = new java.util.HashSet<>();
    /** Load relative to the top of the curve, by event time. */
    LongToDoubleFunction load = t -> 1.0;

    World(ScenarioParams params) {
        this.params = params;
        long start = params.start().toEpochMilli();
        this.engine = new Engine(start, start + params.duration().toMillis());
        Dice root = new Dice(params.seed());
        Dice setup = root.split();
        this.trafficDice = root.split();
        this.checkDice = root.split();
        this.opsDice = root.split();
        this.haproxyDice = root.split();
        this.noiseDice = root.split();
        this.alb = new AlbModel(this, setup.split());
        this.haproxy = new HaproxyModel(this, setup.split());
    }

    long now() {
        return engine.now();
    }

    long start() {
        return engine.start();
    }

    long onset() {
        return engine.start() + params.onset().toMillis();
    }

    void at(long time, Runnable action) {
        engine.schedule(Math.max(time, engine.now()), action);
    }

    void at(Duration fromStart, Runnable action) {
        at(engine.start() + fromStart.toMillis(), action);
    }

    /** Runs {@code action} at {@code first} and every {@code period} after. */
    void every(long first, long period, Runnable action) {
        engine.schedule(first, new Runnable() {
            @Override
            public void run() {
                action.run();
                engine.schedule(engine.now() + period, this);
            }
        });
    }

    /** Starts every model; scenarios have configured the world by now. */
    void begin() {
        if (collector != null) {
            collector.begin();
        }
        alb.begin();
        haproxy.begin();
    }

    /** Whether checks reach hcwatch as AWS delivers them: states from the collector, every check in the logs. */
    boolean aws() {
        return collector != null;
    }

    // ---- writing telemetry -----------------------------------------------------------------

    void writeConfig(LbConfig config) {
        if (collector != null && config.getKind() == io.hcwatch.avro.v1.ConfigKind.target_group) {
            alb.groups.stream().filter(g -> g.name.equals(config.getId())).findFirst()
                    .ifPresent(tg -> collector.configured(config, tg));
            return;
        }
        engine.emit(Source.CONFIG, config.getTs().toEpochMilli(), config.getId(), LbConfigJson.write(config));
    }

    void writeHealth(AlbTargetGroup.Feed feed, HealthCheckResult r) {
        long ts = r.getTs().toEpochMilli();
        if (feed == AlbTargetGroup.Feed.HEALTH_JSON && collector == null) {
            engine.emit(Source.HEALTH, ts, r.getTarget(), HealthCheckResultJson.write(r));
        } else {
            engine.emit(Source.ALB_HEALTH, ts, null, AlbHealthCheckLogFormat.format(r, "http"));
        }
    }

    void writeAlb(long ts, String line) {
        engine.emit(Source.ALB, ts, null, line);
    }

    /** What HAProxy on {@code host} logs; nothing reaches Kafka while the host's shipper is stopped. */
    void writeHaproxy(String host, long ts, String line) {
        if (!stoppedShippers.contains(host)) {
            engine.emit(Source.HAPROXY, ts, null, line);
        }
    }
}
