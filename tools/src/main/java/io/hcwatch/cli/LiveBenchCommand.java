package io.hcwatch.cli;

import io.hcwatch.perf.LiveBench;
import java.util.LinkedHashMap;
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

    @Option(names = "--latency-samples", defaultValue = "200", description = "Alert latency samples (default ${DEFAULT-VALUE})")
    int latencySamples;

    @Option(names = "--haproxy-stats", description = "Also run hcwatch with the HAProxy collector's polls (2 hosts, 100 frontends"
            + " each, one poll a second of event time) beside hcwatch without them, in every round")
    boolean haproxyStats;

    @Option(names = "--streams-config", paramLabel = "KEY=VALUE",
            description = "A Kafka Streams or client setting for both hcwatch and the pass-through (repeatable),"
                    + " e.g. num.stream.threads=1")
    Map<String, String> streamsConfig = new LinkedHashMap<>();

    @Override
    public Integer call() throws Exception {
        if (records < 1 || rounds < 1 || partitions < 1 || instances < 1) {
            throw new UsageException("--records, --rounds, --partitions and --instances must be at least 1");
        }
        LiveBench.run(records, partitions, rounds, instances, latencySamples, streamsConfig, haproxyStats, System.out);
        return 0;
    }
}
