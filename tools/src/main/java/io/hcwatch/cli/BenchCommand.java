package io.hcwatch.cli;

import io.hcwatch.perf.EntityMemoryBench;
import io.hcwatch.perf.FloodHeapBench;
import io.hcwatch.perf.ReplayBench;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./hcwatch bench …}: the benchmark commands whose figures are in the README. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Benchmarks that print figures (see README, Benchmarks).",
        subcommands = {BenchCommand.Replay.class, BenchCommand.FloodHeap.class, BenchCommand.Memory.class, BenchCommand.StateChurn.class, BenchCommand.Cardinality.class, BenchCommand.Fleet.class, BenchCommand.Stores.class,
                LiveBenchCommand.class})
final class BenchCommand implements Runnable {

    @Override
    public void run() {
        new picocli.CommandLine(this).usage(System.out);
    }

    @Command(name = "replay", mixinStandardHelpOptions = true,
            description = "Replay throughput on a generated file set, beside a decode-only baseline of the same lines.")
    static final class Replay implements Callable<Integer> {
        @Option(names = "--lines", defaultValue = "1000000", description = "Lines to generate (default ${DEFAULT-VALUE})")
        long lines;

        @Option(names = "--rounds", defaultValue = "3", description = "Measured rounds after a warm-up (default ${DEFAULT-VALUE})")
        int rounds;

        @Override
        public Integer call() throws Exception {
            ReplayBench.run(lines, rounds, System.out);
            return 0;
        }
    }

    @Command(name = "flood-heap", mixinStandardHelpOptions = true,
            description = "Heap in use under a flood of distinct client addresses; run with HCWATCH_JAVA_OPTS=-Xmx512m.")
    static final class FloodHeap implements Callable<Integer> {
        @Option(names = "--minutes", defaultValue = "3", description = "Minutes of event time (default ${DEFAULT-VALUE})")
        int minutes;

        @Option(names = "--distinct-per-minute", defaultValue = "1000000",
                description = "New client addresses per minute (default ${DEFAULT-VALUE})")
        int distinctPerMinute;

        @Override
        public Integer call() {
            FloodHeapBench.run(minutes, distinctPerMinute, System.out);
            return 0;
        }
    }

    @Command(name = "memory", mixinStandardHelpOptions = true,
            description = "Heap per target group (fresh, active, idle) after GC, beside a same-run baseline.")
    static final class Memory implements Callable<Integer> {
        @Option(names = "--target-groups", defaultValue = "10000", description = "Target groups (default ${DEFAULT-VALUE})")
        int groups;

        @Option(names = "--targets-per-group", defaultValue = "1", description = "Targets per group (default ${DEFAULT-VALUE})")
        int targets;

        @Option(names = "--active-minutes", defaultValue = "5", description = "Minutes of checks every 10 s (default ${DEFAULT-VALUE})")
        int activeMinutes;

        @Option(names = "--idle-minutes", defaultValue = "70",
                description = "Minutes of silence before the idle figure (default ${DEFAULT-VALUE}: past the 1 h lookback)")
        int idleMinutes;

        @Override
        public Integer call() {
            if (groups < 1 || targets < 1 || activeMinutes < 1 || idleMinutes < 1) {
                throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this), "counts and minutes must be at least 1");
            }
            EntityMemoryBench.run(groups, targets, activeMinutes, idleMinutes, System.out);
            return 0;
        }
    }

    @Command(name = "state", mixinStandardHelpOptions = true,
            description = "Target groups appearing and disappearing over days: the fleet store's keys and bytes, hour by hour.")
    static final class StateChurn implements Callable<Integer> {
        @Option(names = "--days", defaultValue = "7", description = "Days of event time (default ${DEFAULT-VALUE})")
        int days;

        @Option(names = "--target-groups", defaultValue = "20000",
                description = "Target groups that appear, at a steady rate, over the run (default ${DEFAULT-VALUE})")
        int groups;

        @Option(names = "--targets-per-group", defaultValue = "2", description = "Targets per group (default ${DEFAULT-VALUE})")
        int targets;

        @Option(names = "--lifetime", defaultValue = "2h", description = "How long each group sends (default ${DEFAULT-VALUE})")
        String lifetime;

        @Option(names = "--interval", defaultValue = "30s", description = "Check interval (default ${DEFAULT-VALUE})")
        String interval;

        @Option(names = "--idle-timeout", defaultValue = "6h", description = "state.idle-timeout (default ${DEFAULT-VALUE})")
        String idleTimeout;

        @Option(names = "--sample-hours", defaultValue = "6", description = "Hours between samples (default ${DEFAULT-VALUE})")
        int sampleHours;

        @Override
        public Integer call() {
            if (days < 1 || groups < 1 || targets < 1 || sampleHours < 1) {
                throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this), "counts must be at least 1");
            }
            long life;
            long every;
            try {
                life = io.hcwatch.config.Setting.parseDuration(lifetime).toMillis();
                every = io.hcwatch.config.Setting.parseDuration(interval).toMillis();
                io.hcwatch.config.Setting.parseDuration(idleTimeout);
            } catch (RuntimeException e) {
                throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this),
                        "not a duration (like 30s, 2h): " + e.getMessage());
            }
            if (every < 1_000) {
                throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this), "--interval must be at least 1s");
            }
            io.hcwatch.perf.StateChurnBench.run(days, groups, targets, life, every, idleTimeout, sampleHours, System.out);
            return 0;
        }
    }

    @Command(name = "cardinality", mixinStandardHelpOptions = true,
            description = "A producer minting target-group names: what the limits take in and dead-letter; run with HCWATCH_JAVA_OPTS=-Xmx512m.")
    static final class Cardinality implements Callable<Integer> {
        @Option(names = "--names", defaultValue = "1000000", description = "Distinct names (default ${DEFAULT-VALUE})")
        int names;

        @Option(names = "--seconds", defaultValue = "60", description = "Seconds of event time they arrive in (default ${DEFAULT-VALUE})")
        int seconds;

        @Override
        public Integer call() {
            if (names < 1 || seconds < 1) {
                throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this), "--names and --seconds must be at least 1");
            }
            io.hcwatch.perf.CardinalityBench.run(names, seconds, System.out);
            return 0;
        }
    }

    @Command(name = "stores", mixinStandardHelpOptions = true,
            description = "Replay with the live app's write-behind stores beside stores that encode every update (a Kafka Streams"
                    + " cached store's cost) and in-memory ones: records/s and encodes per record.")
    static final class Stores implements Callable<Integer> {
        @Option(names = "--lines", defaultValue = "300000", description = "Lines of the replay workload (default ${DEFAULT-VALUE})")
        long lines;

        @Option(names = "--rounds", defaultValue = "3", description = "Measured rounds after a warm-up (default ${DEFAULT-VALUE})")
        int rounds;

        @Option(names = "--commit-ms", defaultValue = "1000",
                description = "Wall time between commits (default ${DEFAULT-VALUE}: a tenth of the live app's at-least-once interval, so that a short run commits)")
        long commitMs;

        @Override
        public Integer call() {
            if (lines < 1 || rounds < 1 || commitMs < 1) {
                throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this),
                        "--lines, --rounds and --commit-ms must be at least 1");
            }
            io.hcwatch.perf.StoreCostBench.run(lines, rounds, commitMs, System.out);
            return 0;
        }
    }

    @Command(name = "fleet", mixinStandardHelpOptions = true,
            description = "A fleet at scale (targets checked every 10 s plus the access-log mix): records/s, heap, store size, changelog bytes/s.")
    static final class Fleet implements Callable<Integer> {
        @Option(names = "--target-groups", defaultValue = "10000", description = "Target groups (default ${DEFAULT-VALUE})")
        int groups;

        @Option(names = "--targets", defaultValue = "100000", description = "Targets in all (default ${DEFAULT-VALUE})")
        int targets;

        @Option(names = "--access-lines-per-second", defaultValue = "5000",
                description = "Access-log lines per second of event time (default ${DEFAULT-VALUE})")
        int access;

        @Option(names = "--minutes", defaultValue = "30", description = "Minutes of event time (default ${DEFAULT-VALUE})")
        int minutes;

        @Option(names = "--commit-ms", defaultValue = "" + io.hcwatch.app.StreamApp.AT_LEAST_ONCE_COMMIT_MS,
                description = "Commit interval in event time (default ${DEFAULT-VALUE}: the app's at least once; exactly once commits every 100)")
        long commitMs;

        @Option(names = "--restore", description = "Then rebuild the monitors' stores from their compacted changelogs: time, and a check that every key comes back as it was")
        boolean restore;

        @Option(names = "--digest", hidden = true,
                description = "Print the SHA-256 of every changelog write in order: an encoding change must leave it as it was")
        boolean digest;

        @Option(names = "--checks", defaultValue = "polled",
                description = "When targets are checked: polled (a target group's targets at once, as collect alb polls them)"
                        + " or spread (each target at its own phase, as ALB health-check logs give them); default ${DEFAULT-VALUE}")
        io.hcwatch.perf.FleetScaleBench.Checks checks;

        @Override
        public Integer call() {
            if (groups < 1 || targets < groups || access < 1 || minutes < 1 || commitMs < 1) {
                throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this),
                        "counts must be at least 1 and --targets at least --target-groups");
            }
            io.hcwatch.perf.FleetScaleBench.run(groups, targets, access, minutes, commitMs, restore, digest, checks, System.out);
            return 0;
        }
    }
}
