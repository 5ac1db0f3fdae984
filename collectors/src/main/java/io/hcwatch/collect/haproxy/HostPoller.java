package io.hcwatch.collect.haproxy;

import io.hcwatch.collect.CollectorMetrics;
import io.hcwatch.collect.ErrorLog;
import io.hcwatch.collect.Outgoing;
import io.hcwatch.collect.Publisher;
import io.hcwatch.collect.haproxy.cfg.HaproxyCfg;
import io.hcwatch.retry.ExponentialBackoff;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Polls one host on its own schedule: every interval while it answers, after an exponential backoff
 * while it does not. Nothing a poll meets stops the schedule: every failure is logged (rate-limited),
 * counted and retried, and other hosts are polled meanwhile on the shared executor.
 */
final class HostPoller implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(HostPoller.class);

    private final String host;
    private final StatsSource source;
    private final HostTracker tracker;
    private final Publisher publisher;
    private final Function<Outgoing.Topic, String> topics;
    private final CollectorMetrics metrics;
    private final ErrorLog errors;
    private final ExponentialBackoff backoff;
    private final Duration interval;
    private final Clock clock;
    private final ScheduledExecutorService executor;
    private final CfgFile cfgFile;
    private final HolderReading holders;
    private HaproxyCfg.Settings cfg;
    private int failures;
    private volatile boolean stopped;

    HostPoller(String host, StatsSource source, Publisher publisher, Function<Outgoing.Topic, String> topics,
               CollectorMetrics metrics, ErrorLog errors, ExponentialBackoff backoff, Duration interval, Clock clock,
               ScheduledExecutorService executor, CfgFile cfgFile, HolderReading holders) {
        this.host = host;
        this.source = source;
        this.tracker = new HostTracker(host);
        this.publisher = publisher;
        this.topics = topics;
        this.metrics = metrics;
        this.errors = errors;
        this.backoff = backoff;
        this.interval = interval;
        this.clock = clock;
        this.executor = executor;
        this.cfgFile = cfgFile;
        this.holders = holders;
        metrics.hostKnown(host);
    }

    void start() {
        executor.execute(this);
    }

    void stop() {
        stopped = true;
    }

    @Override
    public void run() {
        if (stopped) {
            return;
        }
        long startNanos = System.nanoTime();
        long delayNanos;
        try {
            pollOnce(startNanos);
            if (failures > 0) {
                errors.recovered(label());
            }
            failures = 0;
            delayNanos = interval.toNanos() - (System.nanoTime() - startNanos);
        } catch (PollException e) {
            delayNanos = failed(e.reason, e.getMessage(), null);
        } catch (RuntimeException | LinkageError | AssertionError e) {
            // a bug met by one host's data must not end that host's polling: report it and carry on
            delayNanos = failed(PollException.Reasons.INTERNAL_ERROR, e.toString(), e);
        }
        if (!stopped) {
            try {
                executor.schedule(this, Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                // the collector is closing
            }
        }
    }

    /** Reads, works out what changed, hands it to the producer; deliveries complete later. */
    void pollOnce(long startNanos) throws PollException {
        long pollMs = clock.millis();
        Snapshot snapshot = source.read();
        long readNanos = System.nanoTime() - startNanos;
        if (cfgFile != null && (cfg == null || tracker.restarted(snapshot))) {
            readCfg();
        }
        HolderReading.Holders held = holders.read(snapshot, source, (reason, message) -> errors.failure(
                "haproxy host " + host + " sessions", reason, message, " (slot holders are not published meanwhile)"));
        HostTracker.Result result = tracker.track(snapshot, pollMs, cfg, held);
        metrics.pollSucceeded(host, readNanos);
        if (result.reloaded()) {
            metrics.reload(host);
        }
        for (String proxy : result.counterResets()) {
            metrics.counterReset(host, proxy);
        }
        for (Outgoing o : result.records()) {
            publisher.publish(topics.apply(o.topic()), o.key(), o.record(), o.timestampMs(), startNanos, o.onFailure());
        }
    }

    /**
     * Reads haproxy.cfg at the first poll and whenever HAProxy restarted or reloaded (only then does
     * it run with what the file says now). An unreadable file keeps the settings last read: stats and
     * checks go on, and the file is tried again at the next poll.
     */
    private void readCfg() {
        try {
            HaproxyCfg.Settings read = cfgFile.read();
            LOG.info("haproxy host {}: read {} ({} backends, {} frontends with a log format)", host, cfgFile,
                    read.servers().size(), read.logFormats().size());
            cfg = read;
        } catch (java.io.IOException | RuntimeException e) {
            errors.failure("haproxy host " + host + " configuration " + cfgFile, "config_unreadable", e.toString(),
                    cfg == null ? " (checks are published without its settings until it can be read)" : " (its settings as last read are kept)");
        }
    }

    /** @param bug the throwable of an internal error, whose stack is logged with the line (when that is logged) */
    private long failed(String reason, String message, Throwable bug) {
        failures++;
        metrics.pollFailed(host, reason);
        Duration wait = backoff.delay(failures);
        if (errors.failure(label(), reason, message, " (attempt " + failures + ", next in " + wait.toMillis() + " ms)")
                && bug != null) {
            LOG.error("haproxy host {}: internal error", host, bug);
        }
        return wait.toNanos();
    }

    private String label() {
        return "haproxy host " + host + " (" + source.describe() + ")";
    }
}
