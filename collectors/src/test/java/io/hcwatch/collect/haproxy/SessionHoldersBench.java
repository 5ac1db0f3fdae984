package io.hcwatch.collect.haproxy;

import io.hcwatch.testsupport.ReservedPort;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * What listing a full frontend's slot holders costs ({@code show sess}), in the same run:
 * <ol>
 *   <li>the real haproxy holding {@code --sessions} tarpitted requests (most from 127.0.0.1, the rest
 *       from 127.0.1.x): the answer's size, HAProxy's CPU to write it (/proc), and the collector's CPU
 *       to read it raw (baseline: bytes counted, nothing kept) and to read it with {@link SessionSources};</li>
 *   <li>a 50,000-session answer (this machine's descriptor limit keeps a real haproxy below that),
 *       made of the real answer's lines with 50,000 distinct sources, read from memory: the
 *       baseline (lines counted) against {@link SessionSources}.</li>
 * </ol>
 * Run (collectors/README.md): {@code mvn -B -ntp -pl collectors -am verify -DskipTests -Pbench-holders}
 */
public final class SessionHoldersBench {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private SessionHoldersBench() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> a = new HashMap<>();
        for (String arg : args) {
            String[] kv = arg.replaceFirst("^--", "").split("=", 2);
            a.put(kv[0], kv[1]);
        }
        int sessions = Integer.parseInt(a.getOrDefault("sessions", "8000"));
        int rounds = Integer.parseInt(a.getOrDefault("rounds", "5"));
        int synthetic = Integer.parseInt(a.getOrDefault("synthetic", "50000"));
        Path dir = Files.createTempDirectory("hcwatch-holders-bench");
        int port = ReservedPort.free();
        Files.writeString(dir.resolve("haproxy.cfg"), String.join("\n",
                "global",
                "    maxconn " + (sessions + 100),
                "    stats socket " + dir.resolve("admin.sock") + " level admin",
                "defaults",
                "    mode http",
                "    timeout connect 1s",
                "    timeout client 120s",
                "    timeout server 5s",
                "    timeout tarpit 120s",
                "frontend fe_web",
                "    bind 127.0.0.1:" + port,
                "    maxconn " + (sessions + 50),
                "    http-request tarpit",
                ""));
        Process haproxy = new ProcessBuilder("haproxy", "-db", "-f", dir.resolve("haproxy.cfg").toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("haproxy.log").toFile()).start();
        List<SocketChannel> clients = new ArrayList<>(sessions);
        try {
            RuntimeApiClient api = new RuntimeApiClient(RuntimeApiAddress.parse("bench", dir.resolve("admin.sock").toString()),
                    Duration.ofSeconds(30));
            waitFor(() -> Files.exists(dir.resolve("admin.sock")), "haproxy's socket");
            ByteBuffer request = ByteBuffer.wrap("GET / HTTP/1.1\r\nHost: b\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            for (int i = 0; i < sessions; i++) {
                SocketChannel c = SocketChannel.open();
                // four in five from one flooder, the rest spread over 254 other clients
                c.bind(new InetSocketAddress(i % 5 == 0 ? "127.0.1." + (1 + i % 254) : "127.0.0.1", 0));
                c.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                c.write(request.duplicate());
                clients.add(c);
            }
            waitFor(() -> scur(api) >= sessions, sessions + " sessions at fe_web");
            System.out.printf(Locale.ROOT, "real haproxy 2.6, %d sessions on fe_web, %d rounds%n", sessions, rounds);
            System.out.println("| round | answer MB | HAProxy CPU ms | read raw: wall ms / CPU ms | read with SessionSources: wall ms / CPU ms | top holder |");
            System.out.println("|---|---|---|---|---|---|");
            byte[] sample = null;
            for (int r = 1; r <= rounds; r++) {
                long[] size = new long[1];
                long hx0 = cpuMillis(haproxy.pid());
                long cpu0 = THREADS.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                java.io.ByteArrayOutputStream keep = r == 1 ? new java.io.ByteArrayOutputStream() : null;
                api.execute("show sess", RuntimeApiSource.MAX_SESSIONS_ANSWER, (bytes, n) -> {
                    size[0] += n;
                    if (keep != null) {
                        keep.write(bytes, 0, n);
                    }
                });
                long rawWall = System.nanoTime() - t0;
                long rawCpu = THREADS.getCurrentThreadCpuTime() - cpu0;
                long hx1 = cpuMillis(haproxy.pid());
                cpu0 = THREADS.getCurrentThreadCpuTime();
                t0 = System.nanoTime();
                SessionSources s = new SessionSources(Set.of("fe_web"));
                api.execute("show sess", RuntimeApiSource.MAX_SESSIONS_ANSWER, s);
                var top = s.top("fe_web", 10);
                long wall = System.nanoTime() - t0;
                long cpu = THREADS.getCurrentThreadCpuTime() - cpu0;
                if (keep != null) {
                    sample = keep.toByteArray();
                }
                System.out.printf(Locale.ROOT, "| %d | %.1f | %d | %.1f / %.1f | %.1f / %.1f | %s=%d of %d |%n", r, size[0] / 1e6,
                        hx1 - hx0, rawWall / 1e6, rawCpu / 1e6, wall / 1e6, cpu / 1e6, top.get(0).getSource(),
                        top.get(0).getSessions(), s.listed().get("fe_web"));
            }
            synthetic(sample, synthetic, rounds);
        } finally {
            for (SocketChannel c : clients) {
                c.close();
            }
            haproxy.destroy();
            haproxy.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** The real answer's fe_web lines, repeated with distinct sources up to {@code count}, read from memory. */
    private static void synthetic(byte[] real, int count, int rounds) {
        List<String> lines = new String(real, StandardCharsets.US_ASCII).lines().filter(l -> l.contains(" fe=fe_web ")).toList();
        StringBuilder sb = new StringBuilder(count * 340);
        for (int i = 0; i < count; i++) {
            String src = i % 5 == 0 ? (i % 10 == 0 ? "10." + (i >> 16 & 255) + "." + (i >> 8 & 255) + "." + (i & 255)
                    : "2001:db8:" + Integer.toHexString(i & 0xffff) + ":1::" + Integer.toHexString(i % 7 + 1)) : "203.0.113.7";
            sb.append(lines.get(i % lines.size()).replaceFirst(" src=\\S+ ", " src=" + src + ":4"
                    + (i % 10_000) + " ")).append('\n');
        }
        byte[] answer = sb.append('\n').toString().getBytes(StandardCharsets.US_ASCII);
        System.out.printf(Locale.ROOT, "%nsynthetic answer: %d sessions (%d distinct clients), %.1f MB, read in 64 KiB chunks%n",
                count, count / 5 + 1, answer.length / 1e6);
        System.out.println("| round | baseline (lines counted) CPU ms | SessionSources + top 10 CPU ms | top holder |");
        System.out.println("|---|---|---|---|");
        for (int r = 1; r <= rounds; r++) {
            long c0 = THREADS.getCurrentThreadCpuTime();
            int newlines = 0;
            for (byte b : answer) {
                if (b == '\n') {
                    newlines++;
                }
            }
            long base = THREADS.getCurrentThreadCpuTime() - c0;
            c0 = THREADS.getCurrentThreadCpuTime();
            SessionSources s = new SessionSources(Set.of("fe_web"));
            for (int at = 0; at < answer.length; at += 65_536) {
                byte[] chunk = java.util.Arrays.copyOfRange(answer, at, Math.min(answer.length, at + 65_536));
                s.read(chunk, chunk.length);
            }
            var top = s.top("fe_web", 10);
            long cost = THREADS.getCurrentThreadCpuTime() - c0;
            System.out.printf(Locale.ROOT, "| %d | %.1f (%d lines) | %.1f | %s=%d of %d |%n", r, base / 1e6, newlines, cost / 1e6,
                    top.get(0).getSource(), top.get(0).getSessions(), s.listed().get("fe_web"));
        }
    }

    private static int scur(RuntimeApiClient api) {
        try {
            Snapshot s = RuntimeApiSource.parse(api.execute(RuntimeApiSource.COMMANDS));
            return s.frontends().stream().filter(f -> f.name().equals("fe_web")).mapToInt(Snapshot.Frontend::scur).sum();
        } catch (PollException e) {
            return -1;
        }
    }

    /** utime + stime of a process from /proc, in ms (clock ticks of 10 ms). */
    private static long cpuMillis(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10;
    }

    private static void waitFor(java.util.function.BooleanSupplier done, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no " + what + " within 120 s");
            }
            Thread.sleep(100);
        }
    }

}
