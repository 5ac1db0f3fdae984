package io.hcwatch.perf;

import io.hcwatch.config.Settings;
import io.hcwatch.replay.LineReader;
import io.hcwatch.replay.ReplayInputs;
import io.hcwatch.replay.ReplayRun;
import io.hcwatch.replay.ReplaySummary;
import io.hcwatch.topology.Decoder;
import io.hcwatch.topology.Decoders;
import io.hcwatch.topology.Source;
import io.hcwatch.topology.Topics;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Replay throughput on a generated file set, beside a same-run baseline that only reads and
 * decodes the same lines (the least any replay must do). Prints every run and the medians, by the
 * wall clock and by the CPU time of the thread that runs both passes: on a shared machine the wall
 * clock also counts the time other processes held the cores, which can swing a round's ratio from
 * 0.1 to 0.6, while the thread's CPU time counts only its own work (GC and JIT threads excepted).
 */
public final class ReplayBench {

    private ReplayBench() {
    }

    public static void run(long lines, int rounds, PrintStream out) throws IOException {
        Path dir = Files.createTempDirectory("hcwatch-bench-");
        Map<Source, Path> files = write(dir, lines);
        out.printf("replay benchmark: %,d lines (%s) in %s%n", lines, describe(files), dir);
        List<Double> baseline = new ArrayList<>();
        List<Double> replay = new ArrayList<>();
        List<Double> baselineCpu = new ArrayList<>();
        List<Double> replayCpu = new ArrayList<>();
        for (int round = 0; round <= rounds; round++) {
            Rate b = baseline(files, lines);
            Rate r = replay(files, lines);
            if (round == 0) {
                out.printf("  warm-up     decode-only %,10.0f lines/s   replay %,10.0f records/s%n", b.wall(), r.wall());
                continue;
            }
            baseline.add(b.wall());
            replay.add(r.wall());
            baselineCpu.add(b.cpu());
            replayCpu.add(r.cpu());
            out.printf("  round %d     decode-only %,10.0f lines/s   replay %,10.0f records/s   ratio %.2f"
                    + "   (per CPU second: %,.0f and %,.0f, ratio %.2f)%n", round, b.wall(), r.wall(), r.wall() / b.wall(),
                    b.cpu(), r.cpu(), r.cpu() / b.cpu());
        }
        double mb = median(baseline);
        double mr = median(replay);
        out.printf("median: replay %,.0f records/s; decode-only baseline %,.0f lines/s; replay/baseline %.2f%n", mr, mb, mr / mb);
        double cb = median(baselineCpu);
        double cr = median(replayCpu);
        out.printf("median per CPU second of the bench thread: replay %,.0f records; decode-only %,.0f lines; replay/baseline %.2f%n",
                cr, cb, cr / cb);
        for (Path f : files.values()) {
            Files.deleteIfExists(f);
        }
        Files.deleteIfExists(dir);
    }

    private static Map<Source, Path> write(Path dir, long lines) throws IOException {
        Map<Source, Path> files = new EnumMap<>(Source.class);
        Map<Source, OutputStream> outs = new EnumMap<>(Source.class);
        try {
            new BenchWorkload(7, 5_000, false).generate(lines, line -> {
                try {
                    OutputStream o = outs.computeIfAbsent(line.source(), s -> {
                        try {
                            Path f = dir.resolve(s.id() + ".log");
                            files.put(s, f);
                            return new BufferedOutputStream(Files.newOutputStream(f), 1 << 16);
                        } catch (IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    });
                    o.write(line.value());
                    o.write('\n');
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
        } finally {
            for (OutputStream o : outs.values()) {
                o.close();
            }
        }
        return files;
    }

    /** Lines per second of the wall clock and per second of the bench thread's CPU time. */
    private record Rate(double wall, double cpu) {
    }

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private static Rate rate(long lines, long startNanos, long startCpuNanos) {
        return new Rate(lines / ((System.nanoTime() - startNanos) / 1e9),
                lines / ((THREADS.getCurrentThreadCpuTime() - startCpuNanos) / 1e9));
    }

    private static Rate baseline(Map<Source, Path> files, long lines) throws IOException {
        Map<Source, Decoder> decoders = Decoders.standard(Topics.defaults(), Map.of("schema.registry.url", "mock://bench"),
                Clock.systemUTC());
        long startCpu = THREADS.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        long decoded = 0;
        for (Map.Entry<Source, Path> e : files.entrySet()) {
            Decoder d = decoders.get(e.getKey());
            try (LineReader reader = new LineReader(e.getValue())) {
                byte[] line;
                while ((line = reader.next()) != null) {
                    if (d.decode(line).isOk()) {
                        decoded++;
                    }
                }
            }
        }
        Rate rate = rate(lines, start, startCpu);
        if (decoded != lines) {
            throw new IllegalStateException("baseline decoded " + decoded + " of " + lines + " lines");
        }
        return rate;
    }

    private static Rate replay(Map<Source, Path> files, long lines) {
        ReplayInputs inputs = new ReplayInputs();
        files.forEach(inputs::add);
        ReplaySummary summary = new ReplaySummary();
        long startCpu = THREADS.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        new ReplayRun(inputs, Settings.defaults(), Clock.systemUTC()).run(d -> {
            throw new IllegalStateException("benchmark input was rejected: " + d.getError());
        }, summary);
        Rate rate = rate(lines, start, startCpu);
        if (summary.alerts() != 0) {
            throw new IllegalStateException("healthy benchmark input raised " + summary.alertsByType());
        }
        return rate;
    }

    private static String describe(Map<Source, Path> files) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<Source, Path> e : files.entrySet()) {
            sb.append(sb.length() > 0 ? ", " : "").append(e.getKey().id()).append(' ')
                    .append(Files.size(e.getValue()) / (1 << 20)).append(" MiB");
        }
        return sb.toString();
    }

    static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(Double::compare);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
