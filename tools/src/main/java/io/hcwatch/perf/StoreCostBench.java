package io.hcwatch.perf;

import io.hcwatch.config.Settings;
import io.hcwatch.replay.ReplayPipeline;
import io.hcwatch.replay.ReplayStores;
import io.hcwatch.topology.Decoders;
import io.hcwatch.topology.TopologyConfig;
import io.hcwatch.topology.Topics;
import io.hcwatch.topology.state.ObjectStore;
import io.hcwatch.topology.state.StateCodec;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintStream;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Why the stores are written behind: the bench replay workload through the real processors three
 * times a round, committing every second of wall time as the live app does: with the stores the
 * live app uses ({@code WriteBehindStore}: a value changed many times between two commits is
 * encoded once, at the commit), with stores that pay what a Kafka Streams key-value store with its
 * record cache pays (every put encoded, every get decoded, see {@link SerialisingStore}), and with
 * replay's in-memory stores (nothing encoded), the same-run baseline. Prints records/s and
 * encodes per record of each.
 */
public final class StoreCostBench {

    private StoreCostBench() {
    }

    /** One pass: records/s and values encoded. */
    private record Pass(double rate, long encodes, int alerts) {
    }

    public static void run(long lines, int rounds, long commitMillis, PrintStream out) {
        List<BenchWorkload.Line> input = new ArrayList<>((int) lines);
        new BenchWorkload(7, 5_000, false).generate(lines, input::add);
        out.printf("store benchmark: %,d lines of the replay workload, a commit every %d ms of wall time%n", lines, commitMillis);
        List<Double> detached = new ArrayList<>();
        List<Double> writeBehind = new ArrayList<>();
        List<Double> serialising = new ArrayList<>();
        for (int round = 0; round <= rounds; round++) {
            Pass d = pass(input, ReplayStores.DETACHED, new long[1], commitMillis);
            long[] written = new long[1];
            Pass w = pass(input, ChangelogMeter.all(bytes -> written[0]++), written, commitMillis);
            long[] serde = new long[2];
            Pass s = pass(input, serialising(serde), serde, commitMillis);
            if (w.alerts() != d.alerts() || s.alerts() != d.alerts()) {
                throw new IllegalStateException("the stores changed the alerts: " + d.alerts() + ", " + w.alerts() + ", " + s.alerts());
            }
            String label = round == 0 ? "warm-up " : "round " + round + " ";
            out.printf("  %s in memory %,9.0f records/s   written behind %,9.0f records/s (%.4f encodes/record)"
                            + "   serialised per update %,9.0f records/s (%.2f encodes, %.2f decodes/record)%n", label, d.rate(),
                    w.rate(), w.encodes() / (double) lines, s.rate(), s.encodes() / (double) lines, serde[1] / (double) lines);
            if (round > 0) {
                detached.add(d.rate());
                writeBehind.add(w.rate());
                serialising.add(s.rate());
            }
        }
        double md = ReplayBench.median(detached);
        double mw = ReplayBench.median(writeBehind);
        double ms = ReplayBench.median(serialising);
        out.printf("median: in memory %,.0f, written behind %,.0f (%.2f of in memory), serialised per update %,.0f records/s"
                + " (%.2f of in memory, %.2f of written behind)%n", md, mw, mw / md, ms, ms / md, ms / mw);
    }

    private static ReplayStores serialising(long[] counts) {
        return new ReplayStores() {
            @Override
            public <V> ObjectStore<V> store(String name, StateCodec<V> codec) {
                return new SerialisingStore<>(name, codec, counts);
            }
        };
    }

    private static Pass pass(List<BenchWorkload.Line> input, ReplayStores stores, long[] encodes, long commitMillis) {
        Map<String, Object> serde = Map.of("schema.registry.url", "mock://store-bench");
        int[] alerts = {0};
        ReplayPipeline pipeline = new ReplayPipeline(new TopologyConfig(Topics.defaults(), Settings.defaults(),
                Decoders.standard(Topics.defaults(), serde, Clock.systemUTC()), serde, new SimpleMeterRegistry(), false),
                a -> alerts[0]++, d -> {
                    throw new IllegalStateException("benchmark input was rejected: " + d.getError());
                }, stores);
        long start = System.nanoTime();
        long nextCommit = start + commitMillis * 1_000_000;
        long fed = 0;
        for (BenchWorkload.Line line : input) {
            pipeline.feed(line.source(), line.value(), line.eventTime(), "bench", fed++);
            if ((fed & 1023) == 0 && System.nanoTime() >= nextCommit) {
                pipeline.commit();
                nextCommit = System.nanoTime() + commitMillis * 1_000_000;
            }
        }
        pipeline.finish();
        pipeline.commit();
        double rate = fed / ((System.nanoTime() - start) / 1e9);
        return new Pass(rate, encodes[0], alerts[0]);
    }
}
