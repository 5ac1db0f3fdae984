package io.hcwatch.bench;

import io.hcwatch.avro.v1.CheckConfig;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.parse.HealthCheckResultJson;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Realistic, varied log lines for the benchmarks, generated from a fixed seed so every run parses
 * the same text: addresses, times, paths, user agents and timings vary line to line as in a real
 * file, so neither parser benefits from seeing one line over and over.
 */
public final class Corpus {

    private static final String[] PATHS = {
        "/", "/health", "/api/cart?id=%d", "/api/orders/%d", "/static/app.%d.js", "/ping/6f1c9a2e-4b7d-4c1e-9f1a-%012d",
        "/search?q=shoes&page=%d", "/login"
    };
    private static final String[] AGENTS = {
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
        "curl/8.5.0", "okhttp/4.12.0", "kube-probe/1.29", "-",
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148"
    };
    private static final String[] MONTHS = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

    private Corpus() {
    }

    /** ALB access-log lines, mostly today's 33 fields, some 29- and 30-field lines, some 5xx. */
    public static List<String> albLines(int count, long seed) {
        Random random = new Random(seed);
        List<String> lines = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int fields = random.nextInt(10) < 7 ? 33 : random.nextBoolean() ? 30 : 29;
            boolean elbError = random.nextInt(20) == 0;
            String client = random.nextInt(10) == 0
                    ? String.format("2001:db8:%x::%x:%d", random.nextInt(0xffff), random.nextInt(0xffff), 1024 + random.nextInt(60000))
                    : ip(random) + ":" + (1024 + random.nextInt(60000));
            String target = elbError ? "-" : "10.0." + random.nextInt(4) + "." + random.nextInt(250) + ":8080";
            String path = String.format(Locale.ROOT, PATHS[random.nextInt(PATHS.length)], random.nextInt(100_000));
            StringBuilder b = new StringBuilder(600);
            b.append(random.nextBoolean() ? "https" : "h2").append(' ')
                    .append(String.format(Locale.ROOT, "2026-03-%02dT%02d:%02d:%02d.%06dZ", 1 + random.nextInt(28),
                            random.nextInt(24), random.nextInt(60), random.nextInt(60), random.nextInt(1_000_000)))
                    .append(" app/prod-web/50dc6c495c0c9188 ").append(client).append(' ').append(target).append(' ')
                    .append(elbError ? "-1 -1 -1 " : String.format(Locale.ROOT, "0.%03d %d.%03d 0.000 ",
                            random.nextInt(3), random.nextInt(3), random.nextInt(1000)))
                    .append(elbError ? "503 - " : "200 200 ").append(random.nextInt(2000)).append(' ')
                    .append(random.nextInt(200_000)).append(" \"GET https://shop.example.net:443").append(path)
                    .append(" HTTP/1.1\" \"").append(AGENTS[random.nextInt(AGENTS.length)])
                    .append("\" TLS_AES_128_GCM_SHA256 TLSv1.3 arn:aws:elasticloadbalancing:us-east-1:111122223333:")
                    .append("targetgroup/prod-web-tg/6d0ecf831eec9f09 \"Root=1-65e48a2d-")
                    .append(String.format("%024x", random.nextLong() & Long.MAX_VALUE))
                    .append("\" \"shop.example.net\" \"session-reused\" ").append(random.nextInt(50))
                    .append(" 2026-03-03T14:32:44.907000Z \"forward\" \"-\" \"-\" \"")
                    .append(target).append("\" \"").append(elbError ? "-" : "200").append("\" \"-\" \"-\"");
            if (fields >= 30) {
                b.append(" TID_").append(String.format("%016x%016x", random.nextLong(), random.nextLong()));
            }
            if (fields >= 33) {
                b.append(" \"-\" \"-\" \"-\"");
            }
            lines.add(b.toString());
        }
        return lines;
    }

    /** HAProxy option-httplog lines behind an RFC 3164 prefix, the form rsyslog writes by default. */
    public static List<String> haproxyHttpLines(int count, long seed) {
        Random random = new Random(seed);
        List<String> lines = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int month = random.nextInt(12);
            int day = 1 + random.nextInt(28);
            int h = random.nextInt(24);
            int m = random.nextInt(60);
            int s = random.nextInt(60);
            boolean headers = random.nextInt(3) == 0;
            boolean failed = random.nextInt(20) == 0;
            String path = String.format(Locale.ROOT, PATHS[random.nextInt(PATHS.length)], random.nextInt(100_000));
            String line = String.format(Locale.ROOT,
                    "%s %2d %02d:%02d:%02d lb%d haproxy[%d]: %s:%d [%02d/%s/2026:%02d:%02d:%02d.%03d] www%s app/%s "
                            + "%d/%d/%d/%s/%d %d %d - - %s %d/%d/%d/%d/%d %d/%d%s \"%s %s HTTP/1.1\"",
                    MONTHS[month], day, h, m, s, 1 + random.nextInt(3), 1000 + random.nextInt(9000), ip(random),
                    1024 + random.nextInt(60000), day, MONTHS[month], h, m, s, random.nextInt(1000),
                    random.nextBoolean() ? "~" : "", failed ? "<NOSRV>" : "web" + random.nextInt(20),
                    random.nextInt(50), failed ? 1000 : 0, failed ? -1 : random.nextInt(3),
                    failed ? "-1" : Integer.toString(random.nextInt(300)), 1 + random.nextInt(2000),
                    failed ? 503 : 200, random.nextInt(100_000), failed ? "sQ--" : "----", random.nextInt(3000),
                    random.nextInt(2000), random.nextInt(500), random.nextInt(100), random.nextInt(2),
                    failed ? random.nextInt(5) : 0, random.nextInt(3),
                    headers ? " {shop.example.net|" + AGENTS[random.nextInt(2)] + "}" : "",
                    random.nextInt(4) == 0 ? "POST" : "GET", path);
            lines.add(line);
        }
        return lines;
    }

    /**
     * Health checks in their JSON form as a collector writes them (HealthCheckResultJson.write, as
     * the collectors' JSON format does): every field, absent ones as null, a tenth failing with a reason.
     */
    public static List<String> healthCheckJson(int count, long seed) {
        Random random = new Random(seed);
        long start = Instant.parse("2026-03-01T00:00:00Z").toEpochMilli();
        CheckConfig check = new CheckConfig("/health", 10_000, 5_000, 3, 2);
        List<String> lines = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            boolean failing = random.nextInt(10) == 0;
            String targetGroup = "arn:aws:elasticloadbalancing:us-east-1:111122223333:targetgroup/tg-" + random.nextInt(500)
                    + "/6d0ecf831eec9f09";
            lines.add(HealthCheckResultJson.write(new HealthCheckResult(
                    Instant.ofEpochMilli(start + (long) (random.nextDouble() * 28 * 86_400_000L)), "alb",
                    "app/prod-web/50dc6c495c0c9188", targetGroup, String.format("i-%016x", random.nextLong() & Long.MAX_VALUE),
                    ip(random), 8080, "us-east-1" + (char) ('a' + random.nextInt(3)),
                    failing ? CheckOutcome.timeout : CheckOutcome.pass, failing ? null : 1 + random.nextInt(400),
                    failing ? null : 200, failing ? TargetState.unhealthy : TargetState.healthy,
                    failing ? "Target.Timeout" : null, check, null, null)));
        }
        return lines;
    }

    private static String ip(Random random) {
        return (1 + random.nextInt(223)) + "." + random.nextInt(256) + "." + random.nextInt(256) + "." + random.nextInt(256);
    }
}
