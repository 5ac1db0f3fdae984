package io.hcwatch.collect.alb;

import io.hcwatch.collect.CollectorMetrics;
import io.hcwatch.collect.ErrorLog;
import io.hcwatch.collect.Outgoing;
import io.hcwatch.collect.Publisher;
import io.hcwatch.collect.aws.ApiException;
import io.hcwatch.observability.LogText;
import io.hcwatch.retry.ExponentialBackoff;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.LoadBalancer;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.TargetGroup;

/**
 * One thread that makes every ELBv2 request of the collector, one at a time, each paced by the
 * shared budget and run earliest-due first: a DescribeTargetHealth per target group every health
 * interval, and a discovery round every config interval (the load balancers, their attributes and
 * target groups, each group's attributes) split into single requests spread over half that
 * interval, so a long round never holds target health back and a short budget never starves the
 * round. A task that fails is retried after a backoff no longer than its
 * interval; nothing it meets ends the loop.
 */
final class AlbPoller implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(AlbPoller.class);
    static final String DISCOVERY = "discovery";
    /** Failures in a row of one discovery request after which the round starts over. */
    static final int MAX_STEP_ATTEMPTS = 8;

    private final AlbConfig config;
    private final ElbApi api;
    private final Publisher publisher;
    private final Function<Outgoing.Topic, String> topics;
    private final CollectorMetrics metrics;
    private final ErrorLog errors;
    private final ExponentialBackoff backoff;
    private final ZoneLookup zones;
    private final Clock clock;
    private final PriorityQueue<Task> queue = new PriorityQueue<>();
    private final Map<String, HealthTask> health = new LinkedHashMap<>();
    private long sequence;
    private volatile boolean stopped;
    private volatile Thread thread;

    AlbPoller(AlbConfig config, ElbApi api, Publisher publisher, Function<Outgoing.Topic, String> topics,
              CollectorMetrics metrics, ErrorLog errors, ExponentialBackoff backoff, ZoneLookup zones, Clock clock) {
        this.config = config;
        this.api = api;
        this.publisher = publisher;
        this.topics = topics;
        this.metrics = metrics;
        this.errors = errors;
        this.backoff = backoff;
        this.zones = zones;
        this.clock = clock;
        metrics.hostKnown(DISCOVERY);
    }

    /** Target groups polled now, by name. */
    synchronized List<String> targetGroups() {
        return health.values().stream().map(h -> h.tracker.info().name()).toList();
    }

    void stop() {
        stopped = true;
        Thread t = thread;
        if (t != null) {
            t.interrupt();
        }
    }

    @Override
    public void run() {
        thread = Thread.currentThread();
        schedule(new Discovery(), System.nanoTime());
        while (!stopped) {
            Task next = queue.peek();
            long wait = next.due - System.nanoTime();
            try {
                if (wait > 0) {
                    Thread.sleep(Math.min(wait / 1_000_000 + 1, 1_000));
                    continue;
                }
                queue.poll();
                next.run();
            } catch (InterruptedException e) {
                if (stopped) {
                    return;
                }
            } catch (RuntimeException | LinkageError | AssertionError e) {
                // a bug met by one answer must not end the polling of every target group
                LOG.error("alb: internal error in {}; retrying it after {}", next, config.backoffMax(), e);
                metrics.pollFailed(next.label(), "internal_error");
                schedule(next, System.nanoTime() + config.backoffMax().toNanos());
            }
        }
    }

    private void schedule(Task task, long dueNanos) {
        task.due = dueNanos;
        task.order = sequence++;
        queue.add(task);
    }

    private void publish(List<Outgoing> records, long startNanos) {
        for (Outgoing o : records) {
            publisher.publish(topics.apply(o.topic()), o.key(), o.record(), o.timestampMs(), startNanos, o.onFailure());
        }
    }

    /** The wait after the n-th failure in a row, never more than {@code cap}, so no task starves. */
    private long retryNanos(int failures, Duration cap) {
        Duration d = backoff.delay(failures);
        return (d.compareTo(cap) > 0 ? cap : d).toNanos();
    }

    private abstract static class Task implements Comparable<Task> {
        long due;
        long order;

        /** Health polls before discovery steps due at the same time. */
        abstract int rank();

        abstract String label();

        abstract void run() throws InterruptedException;

        @Override
        public int compareTo(Task o) {
            int c = Long.compare(due - o.due, 0);
            if (c != 0) {
                return c;
            }
            c = Integer.compare(rank(), o.rank());
            return c != 0 ? c : Long.compare(order, o.order);
        }
    }

    private final class HealthTask extends Task {
        final TargetGroupTracker tracker;
        int failures;
        boolean removed;

        HealthTask(TargetGroupTracker tracker) {
            this.tracker = tracker;
            metrics.hostKnown(tracker.info().name());
        }

        @Override
        int rank() {
            return 0;
        }

        @Override
        String label() {
            return tracker.info().name();
        }

        @Override
        void run() throws InterruptedException {
            if (removed) {
                return;
            }
            TargetGroupInfo tg = tracker.info();
            long start = System.nanoTime();
            long next;
            try {
                var descriptions = api.targetHealth(tg.arn());
                long pollMs = clock.millis();
                metrics.pollSucceeded(tg.name(), System.nanoTime() - start);
                if (failures > 0) {
                    errors.recovered(source());
                }
                failures = 0;
                publish(tracker.health(descriptions, pollMs), start);
                long interval = config.healthInterval().toNanos();
                long jitter = ThreadLocalRandom.current().nextLong(interval / 50 + 1);
                // behind schedule (the budget is short): poll again one interval after this poll, not at once
                next = (due + interval - start > 0 ? due + interval : start + interval) + jitter;
            } catch (ApiException e) {
                failures++;
                metrics.pollFailed(tg.name(), e.failure().reason());
                long wait = retryNanos(failures, config.healthInterval());
                errors.failure(source(), e.failure().reason(), e.api() + ": " + e.failure().message(),
                        " (" + e.failure().requestId() + ", attempt " + failures + ", next in " + wait / 1_000_000 + " ms)");
                next = System.nanoTime() + wait;
            }
            schedule(this, next);
        }

        private String source() {
            return "alb target group " + tracker.info().name();
        }

        @Override
        public String toString() {
            return "DescribeTargetHealth of " + tracker.info().name();
        }
    }

    /** One request of a discovery round. */
    @FunctionalInterface
    private interface Step {
        void run() throws ApiException, InterruptedException;
    }

    private final class Discovery extends Task {
        private final Deque<Step> steps = new ArrayDeque<>();
        private final Map<String, Map<String, String>> lbAttributes = new HashMap<>();
        private final Set<String> seen = new HashSet<>();
        private int loadBalancers;
        private long roundStart;
        /**
         * When the next request of the round is due. Requests are spread over half the config
         * interval (by the previous round's count), each due a fixed spacing after the one before,
         * not "now": polls are run earliest-due first, so when the budget is short the health polls
         * stretch and the round still ends in time. The first round's requests are all due at its
         * start, so the target groups are known as soon as the budget allows.
         */
        private long stepDue;
        private long stepSpacing;
        private int stepsThisRound;
        private int stepsLastRound;
        private int failures;
        private String lastSummary;

        @Override
        int rank() {
            return 1;
        }

        @Override
        String label() {
            return DISCOVERY;
        }

        @Override
        void run() throws InterruptedException {
            if (steps.isEmpty()) {
                roundStart = System.nanoTime();
                stepDue = roundStart;
                stepSpacing = stepsLastRound == 0 ? 0 : config.configInterval().toNanos() / (2L * stepsLastRound);
                stepsThisRound = 0;
                lbAttributes.clear();
                seen.clear();
                steps.add(this::resolveLoadBalancers);
            }
            long start = System.nanoTime();
            try {
                steps.peek().run();
                steps.poll();
                stepsThisRound++;
            } catch (ApiException e) {
                failures++;
                metrics.pollFailed(DISCOVERY, e.failure().reason());
                long wait = retryNanos(failures, config.configInterval());
                String then;
                if (e.failure().reason().equals("not_found")) {
                    // a target group or load balancer deleted during the round: the rest of the round still holds
                    steps.poll();
                    then = "skipping that request";
                } else if (failures > MAX_STEP_ATTEMPTS) {
                    steps.clear();
                    then = "a new round";
                } else {
                    // throttles are expected: the same request again, the round's progress kept
                    then = "the same request";
                }
                errors.failure("alb discovery", e.failure().reason(), e.api() + ": " + e.failure().message(),
                        " (" + e.failure().requestId() + ", attempt " + failures + ", " + then + " in " + wait / 1_000_000 + " ms)");
                stepDue = System.nanoTime() + wait;
                schedule(this, stepDue);
                return;
            }
            if (!steps.isEmpty()) {
                stepDue += stepSpacing;
                schedule(this, stepDue);
                return;
            }
            stepsLastRound = stepsThisRound;
            finishRound(start);
            long due = roundStart + config.configInterval().toNanos();
            schedule(this, due - System.nanoTime() > 0 ? due : System.nanoTime());
        }

        private void resolveLoadBalancers() throws ApiException, InterruptedException {
            List<LoadBalancer> lbs;
            if (!config.tags().isEmpty()) {
                List<LoadBalancer> all = api.allLoadBalancers();
                Map<String, Map<String, String>> tags = api.tags(all.stream().map(LoadBalancer::loadBalancerArn).toList());
                lbs = all.stream().filter(lb -> hasTags(tags.getOrDefault(lb.loadBalancerArn(), Map.of()))).toList();
            } else if (config.loadBalancers().get(0).startsWith("arn:")) {
                lbs = api.loadBalancersByArn(config.loadBalancers());
            } else {
                lbs = api.loadBalancersByName(config.loadBalancers());
            }
            loadBalancers = lbs.size();
            for (LoadBalancer lb : lbs) {
                steps.add(() -> lbAttributes.put(lb.loadBalancerArn(), api.loadBalancerAttributes(lb.loadBalancerArn())));
                steps.add(() -> targetGroups(lb));
            }
        }

        private boolean hasTags(Map<String, String> tags) {
            return config.tags().entrySet().stream().allMatch(t -> t.getValue().equals(tags.get(t.getKey())));
        }

        private void targetGroups(LoadBalancer lb) throws ApiException, InterruptedException {
            for (TargetGroup tg : api.targetGroups(lb.loadBalancerArn())) {
                // a group behind two watched load balancers is polled once, under the first
                if (seen.add(tg.targetGroupArn())) {
                    steps.add(() -> attributes(tg, lb));
                }
            }
        }

        private void attributes(TargetGroup tg, LoadBalancer lb) throws ApiException, InterruptedException {
            long start = System.nanoTime();
            Map<String, String> attributes = api.targetGroupAttributes(tg.targetGroupArn());
            TargetGroupInfo info = TargetGroupInfo.of(tg, attributes, lb, lbAttributes.getOrDefault(lb.loadBalancerArn(), Map.of()));
            long pollMs = clock.millis();
            HealthTask task;
            synchronized (AlbPoller.this) {
                task = health.get(info.arn());
            }
            if (task != null) {
                publish(task.tracker.settings(info, pollMs), start);
                return;
            }
            TargetGroupTracker tracker = new TargetGroupTracker(info, zones);
            task = new HealthTask(tracker);
            synchronized (AlbPoller.this) {
                health.put(info.arn(), task);
            }
            publish(tracker.settings(info, pollMs), start);
            schedule(task, System.nanoTime());
        }

        private void finishRound(long start) {
            List<String> gone = new ArrayList<>();
            synchronized (AlbPoller.this) {
                health.entrySet().removeIf(e -> {
                    if (seen.contains(e.getKey())) {
                        return false;
                    }
                    e.getValue().removed = true;
                    gone.add(e.getValue().tracker.info().name());
                    return true;
                });
            }
            metrics.pollSucceeded(DISCOVERY, System.nanoTime() - start);
            if (failures > 0) {
                errors.recovered("alb discovery");
            }
            failures = 0;
            if (!gone.isEmpty()) {
                LOG.info("alb: no longer watching target groups {} (gone from the watched load balancers)", LogText.of(gone));
            }
            int groups = seen.size();
            double demand = config.demandPerSecond(groups, loadBalancers);
            String summary = "watching " + groups + " target groups of " + loadBalancers + " load balancers";
            if (!summary.equals(lastSummary)) {
                lastSummary = summary;
                if (demand > config.apiRate()) {
                    LOG.warn("alb: {}; polling each every {} ms needs {} ELBv2 requests/s, above alb.api.rate={}: each"
                                    + " target group will be polled about every {} ms", summary, config.healthInterval().toMillis(),
                            String.format("%.2f", demand), config.apiRate(),
                            Math.round(config.healthInterval().toMillis() * demand / config.apiRate()));
                } else {
                    LOG.info("alb: {}; {} ELBv2 requests/s of the alb.api.rate={} budget", summary,
                            String.format("%.2f", demand), config.apiRate());
                }
            }
        }

        @Override
        public String toString() {
            return "discovery";
        }
    }
}
