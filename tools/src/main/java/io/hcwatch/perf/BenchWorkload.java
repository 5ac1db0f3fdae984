package io.hcwatch.perf;

import io.hcwatch.avro.v1.AlbRequest;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HaproxyLogFormat;
import io.hcwatch.avro.v1.HaproxyRequest;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.parse.AlbHealthCheckLogFormat;
import io.hcwatch.parse.AlbLogFormat;
import io.hcwatch.parse.HaproxyLineFormat;
import io.hcwatch.topology.Source;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * A steady, healthy production mix for benchmarks, in the real formats: ALB access logs (60%),
 * HAProxy http logs (30%) and ALB health-check logs (the rest), from 4 target groups of 24
 * targets in 3 zones, 2 HAProxy hosts, and a pool of clients. Deterministic for a seed.
 * Optionally every client address is new (a flood of distinct addresses) to load the sketches.
 */
public final class BenchWorkload {

    /** One raw input value. */
    public record Line(Source source, long eventTime, byte[] value) {
    }

    public static final long T0 = Instant.parse("2026-03-03T12:00:00Z").toEpochMilli();
    private static final int TARGET_GROUPS = 4;
    private static final int TARGETS = 24;
    private static final String LB = "app/prod-web/50dc6c495c0c9188";

    private final long seed;
    private final int linesPerSecond;
    private final boolean distinctClients;
    private final HaproxyLineFormat haproxy = new HaproxyLineFormat(ZoneOffset.UTC);

    /**
     * @param linesPerSecond  event-time rate of the generated input
     * @param distinctClients every request from a client address never seen before
     */
    public BenchWorkload(long seed, int linesPerSecond, boolean distinctClients) {
        this.seed = seed;
        this.linesPerSecond = linesPerSecond;
        this.distinctClients = distinctClients;
    }

    /** Generates {@code count} lines in event-time order, from {@link #T0}. */
    public void generate(long count, Consumer<Line> out) {
        generate(count, T0, out);
    }

    /** Generates {@code count} lines in event-time order, the first at {@code start}. */
    public void generate(long count, long start, Consumer<Line> out) {
        SplittableRandom random = new SplittableRandom(seed);
        long checkEvery = Math.max(1, linesPerSecond / (TARGET_GROUPS * TARGETS / 10));
        for (long i = 0; i < count; i++) {
            long ts = start + i * 1000 / linesPerSecond;
            int pick = random.nextInt(100);
            if (i % checkEvery == 0 || pick >= 90) {
                out.accept(new Line(Source.ALB_HEALTH, ts, bytes(AlbHealthCheckLogFormat.format(check(random, ts)))));
            } else if (pick < 60) {
                out.accept(new Line(Source.ALB, ts, bytes(AlbLogFormat.format(albRequest(random, ts, i)))));
            } else {
                out.accept(new Line(Source.HAPROXY, ts, bytes(haproxy.format(haproxyRequest(random, ts, i)))));
            }
        }
    }

    private String client(SplittableRandom random, long i) {
        long n = distinctClients ? i : random.nextInt(50_000);
        return "198." + (18 + (n >>> 16 & 1)) + "." + (n >>> 8 & 255) + "." + (n & 255);
    }

    private String distinctAddress(long i) {
        return "10." + (i >>> 16 & 255) + "." + (i >>> 8 & 255) + "." + (i & 255);
    }

    private HealthCheckResult check(SplittableRandom random, long ts) {
        int tg = random.nextInt(TARGET_GROUPS);
        int t = random.nextInt(TARGETS);
        return HealthCheckResult.newBuilder()
                .setTs(Instant.ofEpochMilli(ts))
                .setSource("alb")
                .setTargetGroup("tg-" + tg)
                .setTarget("10." + tg + "." + (t % 3) + "." + (10 + t) + ":8080")
                .setTargetIp("10." + tg + "." + (t % 3) + "." + (10 + t))
                .setPort(8080)
                .setOutcome(CheckOutcome.pass)
                .setLatencyMs(20 + random.nextInt(60))
                .setStatusCode(200)
                .setState(TargetState.healthy)
                .build();
    }

    private AlbRequest albRequest(SplittableRandom random, long ts, long i) {
        int tg = random.nextInt(TARGET_GROUPS);
        int t = random.nextInt(TARGETS);
        boolean error = random.nextInt(1000) == 0;
        Instant time = Instant.ofEpochMilli(ts);
        String url = "https://api.example.com:443/v1/items/" + random.nextInt(10_000) + "?page=" + random.nextInt(5);
        return AlbRequest.newBuilder()
                .setType("https").setTime(time).setElb(LB)
                .setClientIp(distinctClients ? distinctAddress(i) : client(random, i)).setClientPort(1024 + random.nextInt(60_000))
                .setTargetIp("10." + tg + "." + (t % 3) + "." + (10 + t)).setTargetPort(8080)
                .setRequestProcessingTime(0.001).setTargetProcessingTime(0.002 + random.nextInt(80) / 1000.0)
                .setResponseProcessingTime(0.0)
                .setElbStatusCode(error ? 502 : 200).setTargetStatusCode(error ? null : 200)
                .setReceivedBytes(240L).setSentBytes(1500L + random.nextInt(4000))
                .setRequest("GET " + url + " HTTP/1.1").setRequestMethod("GET").setRequestUrl(url).setRequestProtocol("HTTP/1.1")
                .setUserAgent("Mozilla/5.0 (X11; Linux x86_64) bench")
                .setSslCipher("ECDHE-RSA-AES128-GCM-SHA256").setSslProtocol("TLSv1.2")
                .setTargetGroupArn("arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/tg-" + tg + "/73e2d6bc24d8a067")
                .setTargetGroup("tg-" + tg)
                .setTraceId("Root=1-58337262-36d228ad5d99923122bbe354").setDomainName("api.example.com")
                .setChosenCertArn("arn:aws:acm:us-east-1:123456789012:certificate/12345678-1234-1234-1234-123456789012")
                .setMatchedRulePriority(1).setRequestCreationTime(time).setActionsExecuted("forward")
                .setTargetPortList("10." + tg + "." + (t % 3) + "." + (10 + t) + ":8080").setTargetStatusCodeList(error ? null : "200")
                .setConnTraceId("TID_" + Long.toHexString(i))
                .setFieldCount(33)
                .build();
    }

    private HaproxyRequest haproxyRequest(SplittableRandom random, long ts, long i) {
        int host = random.nextInt(2);
        int feconn = 200 + random.nextInt(300);
        return HaproxyRequest.newBuilder()
                .setFormat(HaproxyLogFormat.http).setTs(Instant.ofEpochMilli(ts))
                .setHost("lb" + (host + 1)).setProcess("haproxy").setPid(1200 + host)
                .setClientIp(distinctClients ? distinctAddress(i) : client(random, i)).setClientPort(1024 + random.nextInt(60_000))
                .setFrontend("fe-web").setBackend("be-web").setServer("s" + (1 + random.nextInt(8)))
                .setTr(0).setTw(0).setTc(1).setTrServer(5 + random.nextInt(50)).setTa(10 + random.nextInt(60))
                .setStatusCode(200).setBytesRead(1500L + random.nextInt(4000))
                .setTerminationState("----")
                .setActconn(feconn + 40).setFeconn(feconn).setBeconn(feconn - 10).setSrvConn(feconn / 8).setRetries(0)
                .setSrvQueue(0).setBackendQueue(0)
                .setHttpMethod("GET").setHttpUri("/v1/items/" + random.nextInt(10_000)).setHttpVersion("HTTP/1.1")
                .build();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
