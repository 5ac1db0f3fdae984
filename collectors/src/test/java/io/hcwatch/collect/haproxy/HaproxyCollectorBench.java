package io.hcwatch.collect.haproxy;

import com.sun.net.httpserver.HttpServer;
import io.hcwatch.collect.ConfigReader;
import io.hcwatch.kafka.EmbeddedKafkaBroker;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * Collector CPU and publish latency for one HAProxy with many frontends and servers, polled every
 * second: generates a haproxy.cfg (frontends on unix sockets, backends of servers health-checked
 * against one local HTTP server), starts the real haproxy, then measures in the same run
 * <ol>
 *   <li>the baseline: reading {@code show info;show stat} raw over the socket, nothing parsed or published;</li>
 *   <li>the collector: polling, parsing, tracking and publishing to the in-process broker.</li>
 * </ol>
 * CPU is per thread (ThreadMXBean): the baseline's reading thread; the collector's poll threads and its
 * producer's network thread. Run (collectors/README.md):
 * {@code mvn -B -ntp -pl collectors -am verify -DskipTests -Pbench [-Dbench.seconds=60]}
 */
public final class HaproxyCollectorBench {

    private HaproxyCollectorBench() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> a = options(args);
        int frontends = Integer.parseInt(a.getOrDefault("frontends", "100"));
        int servers = Integer.parseInt(a.getOrDefault("servers", "1000"));
        int seconds = Integer.parseInt(a.getOrDefault("seconds", "30"));
        Duration interval = Duration.ofMillis(Long.parseLong(a.getOrDefault("interval-ms", "1000")));
        Path dir = Files.createTempDirectory("hcwatch-haproxy-bench");
        HttpServer backend = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        backend.createContext("/", exchange -> {
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        backend.start();
        Path cfg = dir.resolve("haproxy.cfg");
        Files.writeString(cfg, config(dir, frontends, servers, backend.getAddress().getPort()));
        Process haproxy = new ProcessBuilder("haproxy", "-db", "-f", cfg.toString()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("haproxy.log").toFile()).start();
        try (EmbeddedKafkaBroker kafka = EmbeddedKafkaBroker.start()) {
            kafka.createTopics(1, "lb-config", "health-check-results", "haproxy-stats");
            RuntimeApiClient client = new RuntimeApiClient(RuntimeApiAddress.parse("bench", dir.resolve("admin.sock").toString()),
                    Duration.ofSeconds(5));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!Files.exists(dir.resolve("admin.sock")) && System.nanoTime() < deadline) {
                if (!haproxy.isAlive()) {
                    throw new IllegalStateException("haproxy exited: " + Files.readString(dir.resolve("haproxy.log")));
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
            }
            String answer = client.execute(RuntimeApiSource.COMMANDS);
            Snapshot check = RuntimeApiSource.parse(answer);
            System.out.printf(Locale.ROOT, "haproxy %s: %d frontends, %d backends, %d servers; answer %d bytes; %d cores%n",
                    version(), check.frontends().size(), check.backends().size(), check.servers().size(), answer.length(),
                    Runtime.getRuntime().availableProcessors());

            Phase raw = baseline(client, interval, seconds, haproxy.pid(), false);
            Phase parsed = baseline(client, interval, seconds, haproxy.pid(), true);
            Phase collector = collector(kafka, dir, interval, seconds, haproxy.pid());
            System.out.println();
            System.out.printf(Locale.ROOT, "%-44s %8s %10s %14s %10s %10s %12s%n", "phase (" + seconds + " s each, poll every "
                    + interval.toMillis() + " ms)", "polls", "polls/s", "CPU ms/poll", "p50 ms", "p99 ms", "haproxy CPU ms/poll");
            raw.print("baseline: read show info;show stat raw", "read");
            parsed.print("baseline: read + parse (no publish)", "read");
            collector.print("collector: read, parse, track, publish", "poll start -> Kafka ack");
        } finally {
            haproxy.destroy();
            haproxy.waitFor(10, TimeUnit.SECONDS);
            backend.stop(0);
        }
    }

    /** What one phase measured. */
    private record Phase(long polls, double seconds, long cpuNanos, double p50Ms, double p99Ms, long haproxyCpuMs) {

        void print(String name, String latencyLabel) {
            System.out.printf(Locale.ROOT, "%-44s %8d %10.2f %14.3f %10.2f %10.2f %12.2f   (latency: %s)%n", name, polls,
                    polls / seconds, cpuNanos / 1e6 / polls, p50Ms, p99Ms, (double) haproxyCpuMs / polls, latencyLabel);
        }
    }

    private static Phase baseline(RuntimeApiClient client, Duration interval, int seconds, long haproxyPid, boolean parse)
            throws PollException {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Histogram latency = new Histogram(3);
        long haproxyBefore = cpuMillis(haproxyPid);
        long cpuBefore = threads.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        long end = start + TimeUnit.SECONDS.toNanos(seconds);
        long polls = 0;
        for (long next = start; next < end; next += interval.toNanos()) {
            LockSupport.parkNanos(next - System.nanoTime());
            long t0 = System.nanoTime();
            String answer = client.execute(RuntimeApiSource.COMMANDS);
            if (parse) {
                RuntimeApiSource.parse(answer);
            }
            latency.recordValue(Math.max(0, (System.nanoTime() - t0) / 1000));
            polls++;
        }
        long cpu = threads.getCurrentThreadCpuTime() - cpuBefore;
        return new Phase(polls, (System.nanoTime() - start) / 1e9, cpu, latency.getValueAtPercentile(50) / 1000.0,
                latency.getValueAtPercentile(99) / 1000.0, cpuMillis(haproxyPid) - haproxyBefore);
    }

    private static Phase collector(EmbeddedKafkaBroker kafka, Path dir, Duration interval, int seconds, long haproxyPid)
            throws IOException {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", kafka.bootstrapServers());
        p.setProperty("schema.registry.url", "mock://haproxy-bench");
        p.setProperty("metrics.port", "-1");
        p.setProperty("haproxy.poll.interval.ms", Long.toString(interval.toMillis()));
        p.setProperty("haproxy.hosts", "bench");
        p.setProperty("haproxy.host.bench.socket", dir.resolve("admin.sock").toString());
        p.setProperty("haproxy.host.bench.name", "lb-bench");
        HaproxyCollector collector = new HaproxyCollector(HaproxyConfig.read(new ConfigReader(p), System::getenv, () -> null));
        // warm-up: the first poll publishes every limit and server, and loads the classes; not measured
        collector.start();
        long warm = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < warm) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
        Timer latencyTimer = collector.registry().get("hcwatch.collector.publish.latency").tag("topic", "haproxy-stats").timer();
        double pollsBefore = collector.registry().get("hcwatch.collector.polls").counter().count();
        long latencyCountBefore = latencyTimer.count();
        CountAtBucket[] bucketsBefore = latencyTimer.takeSnapshot().histogramCounts();
        Map<Long, Long> cpuBefore = collectorThreadCpu();
        long haproxyBefore = cpuMillis(haproxyPid);
        long start = System.nanoTime();
        LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(seconds));
        double elapsed = (System.nanoTime() - start) / 1e9;
        Map<Long, Long> cpuAfter = collectorThreadCpu();
        long polls = (long) (collector.registry().get("hcwatch.collector.polls").counter().count() - pollsBefore);
        long haproxyCpu = cpuMillis(haproxyPid) - haproxyBefore;
        CountAtBucket[] bucketsAfter = latencyTimer.takeSnapshot().histogramCounts();
        long cpu = 0;
        for (Map.Entry<Long, Long> e : cpuAfter.entrySet()) {
            cpu += e.getValue() - cpuBefore.getOrDefault(e.getKey(), 0L);
        }
        collector.close();
        long acked = latencyTimer.count() - latencyCountBefore;
        return new Phase(polls, elapsed, cpu, bucketPercentile(bucketsBefore, bucketsAfter, acked, 0.50),
                bucketPercentile(bucketsBefore, bucketsAfter, acked, 0.99), haproxyCpu);
    }

    /**
     * A percentile of what the latency histogram counted between two snapshots (its buckets are
     * cumulative since start, so the warm-up drops out): the upper bound of the bucket it falls in,
     * an over-estimate by at most one bucket step.
     */
    private static double bucketPercentile(CountAtBucket[] before, CountAtBucket[] after, long total, double percentile) {
        for (int i = 0; i < after.length; i++) {
            if (after[i].count() - before[i].count() >= percentile * total) {
                return after[i].bucket(TimeUnit.MILLISECONDS);
            }
        }
        return Double.NaN;
    }

    /** CPU nanoseconds of the collector's poll threads and its producer's network thread, by thread id. */
    private static Map<Long, Long> collectorThreadCpu() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Map<Long, Long> cpu = new HashMap<>();
        for (ThreadInfo t : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (t != null && (t.getThreadName().startsWith(HaproxyCollector.THREAD_PREFIX)
                    || t.getThreadName().equals("kafka-producer-network-thread | hcwatch-collect-haproxy"))) {
                cpu.put(t.getThreadId(), threads.getThreadCpuTime(t.getThreadId()));
            }
        }
        return cpu;
    }

    /** utime + stime of a process from /proc, in milliseconds (USER_HZ 100). */
    private static long cpuMillis(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    static String config(Path dir, int frontends, int servers, int backendPort) {
        StringBuilder c = new StringBuilder();
        c.append("global\n    stats socket ").append(dir.resolve("admin.sock")).append(" level admin\n    maxconn 5000\n")
                .append("defaults\n    mode http\n    timeout connect 1s\n    timeout client 5s\n    timeout server 5s\n")
                .append("    timeout check 1s\n");
        int perBackend = Math.max(1, servers / frontends);
        int made = 0;
        for (int f = 0; f < frontends; f++) {
            c.append("frontend fe").append(f).append("\n    bind unix@").append(dir.resolve("fe" + f + ".sock"))
                    .append("\n    maxconn ").append(100 + f).append("\n    default_backend be").append(f).append('\n');
            c.append("backend be").append(f).append("\n    option httpchk GET /health\n");
            for (int s = 0; s < perBackend && made < servers; s++, made++) {
                c.append("    server s").append(s).append(" 127.0.0.1:").append(backendPort).append(" check inter 5s\n");
            }
        }
        return c.toString();
    }

    private static String version() {
        try {
            Process v = new ProcessBuilder("haproxy", "-v").redirectErrorStream(true).start();
            String out = new String(v.getInputStream().readAllBytes()).lines().findFirst().orElse("?");
            v.waitFor(5, TimeUnit.SECONDS);
            return out.replace("HAProxy version ", "").split(" ")[0];
        } catch (IOException | InterruptedException e) {
            return "?";
        }
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> out = new HashMap<>();
        for (String arg : args) {
            if (arg.startsWith("--") && arg.contains("=")) {
                out.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
            } else if (!arg.isBlank()) {
                throw new IllegalArgumentException("expected --name=value, got " + arg + "; names: frontends, servers, seconds,"
                        + " interval-ms (all of " + Arrays.toString(args) + ")");
            }
        }
        return out;
    }
}
