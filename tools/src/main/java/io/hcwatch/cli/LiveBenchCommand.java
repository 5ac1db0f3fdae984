package io.hcwatch.cli;

import io.hcwatch.perf.LiveBench;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./hcwatch bench live}: throughput against a pass-through, and alert latency, on an in-process broker. */
@Command(name = "live", mixinStandardHelpOptions = true,
        description = "Throughput of hcwatch vs a Kafka Streams pass-through of the same records, and alert latency, on an in-process broker.")
final class LiveBenchCommand implements Callable<Integer> {

    @Option(names = "--records", defaultValue = "30000000",
            description = "Input records (default ${DEFAULT-VALUE}: hcwatch runs for a minute or more here)")
    long records;

    @Option(names = "--rounds", defaultValue = "2",
            description = "Rounds of both apps over the whole input, in alternating order (default ${DEFAULT-VALUE})")
    int rounds;

    @Option(names = "--partitions", defaultValue = "2", description = "Partitions per input topic (default ${DEFAULT-VALUE})")
    int partitions;

    @Option(names = "--instances", defaultValue = "1",
            description = "Instances of each app in one consumer group, each with its own state directory (default ${DEFAULT-VALUE})")
    int instances;

    @Option(names = "--latency-samples", defaultValue = "200", description = "Alert latency samples, 0 for none (default ${DEFAULT-VALUE})")
    int latencySamples;

    @Option(names = "--haproxy-stats", description = "Also run hcwatch with the HAProxy collector's polls (2 hosts, 100 frontends"
            + " each, one poll a second of event time) beside hcwatch without them, in every round")
    boolean haproxyStats;

    @Option(names = "--threads", split = ",", paramLabel = "N",
            description = "Compare stream thread counts in the same run, e.g. --threads 1,2: every round runs both apps at each"
                    + " (overrides num.stream.threads)")
    List<Integer> threads = new ArrayList<>();

    @Option(names = "--streams-config", paramLabel = "KEY=VALUE",
            description = "A Kafka Streams or client setting for both hcwatch and the pass-through (repeatable),"
                    + " e.g. num.stream.threads=1")
    Map<String, String> streamsConfig = new LinkedHashMap<>();

    @Option(names = "--broker-config", paramLabel = "KEY=VALUE",
            description = "A setting of the in-process broker over the bench's own (repeatable), e.g."
                    + " group.initial.rebalance.delay.ms=0 (the bench's 3000 lets two threads or instances share tasks from the start)")
    Map<String, String> brokerConfig = new LinkedHashMap<>();

    @Override
    public Integer call() throws Exception {
        if (records < 1 || rounds < 1 || partitions < 1 || instances < 1) {
            throw new UsageException("--records, --rounds, --partitions and --instances must be at least 1");
        }
        if (latencySamples < 0) {
            throw new UsageException("--latency-samples must be 0 (no latency run) or more");
        }
        if (threads.stream().anyMatch(t -> t < 1) || threads.stream().distinct().count() < threads.size()) {
            throw new UsageException("--threads takes distinct thread counts of at least 1, e.g. 1,2");
        }
        if (!threads.isEmpty() && haproxyStats) {
            throw new UsageException("--threads and --haproxy-stats cannot be combined: the polls are measured at one thread count");
        }
        LiveBench.run(records, partitions, rounds, instances, latencySamples, streamsConfig, haproxyStats, threads, brokerConfig,
                System.out);
        return 0;
    }
}
