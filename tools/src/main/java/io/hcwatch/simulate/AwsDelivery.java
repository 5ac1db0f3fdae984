package io.hcwatch.simulate;

import io.hcwatch.topology.Source;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.zip.GZIPOutputStream;

/**
 * How a simulation reaches hcwatch from an AWS account: the collector's records (HealthCheckResult,
 * LbConfig) and HAProxy's lines as they happen, ALB's access and health-check log lines in S3
 * objects, one per load-balancer node (one per zone) and 5-minute period, each delivered some
 * minutes after its period ends, as {@code collect alb-logs} would then produce them. Object keys
 * follow the layout AWS documents for ALB logs
 * ({@code AWSLogs/<account>/elasticloadbalancing/<region>/yyyy/mm/dd/<account>_elasticloadbalancing_<region>_app.<lb>.<id>_<end>_<ip>_<random>.log.gz},
 * health-check logs with the prefix {@code health_check_log_}).
 */
public final class AwsDelivery implements Consumer<Telemetry> {

    /** ALB writes a log object per node every 5 minutes. */
    public static final long PERIOD_MS = 300_000;
    /** The first node's objects arrive this long after their period ends; each further node's 45 s later. */
    public static final long FIRST_LAG_MS = 60_000;
    public static final long NODE_SPREAD_MS = 45_000;

    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyy/MM/dd", Locale.ROOT).withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter END = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmm'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

    /** One S3 object: its key, what it holds, and when it reaches Kafka. */
    public record LogObject(String key, Source source, int node, long periodEnd, long deliverAt, List<Telemetry> lines) {
    }

    /** What reaches Kafka at {@code at}: a record produced as it happens, or an object's lines. */
    public record Delivery(long at, Telemetry record, LogObject object) {
        public List<Telemetry> records() {
            return object == null ? List.of(record) : object.lines();
        }
    }

    private final int nodes;
    private final List<Delivery> direct = new ArrayList<>();
    private final Map<String, LogObject> objects = new LinkedHashMap<>();

    /** @param nodes load-balancer nodes (one per zone) */
    public AwsDelivery(int nodes) {
        this.nodes = nodes;
    }

    @Override
    public void accept(Telemetry t) {
        if (t.source() != Source.ALB && t.source() != Source.ALB_HEALTH) {
            direct.add(new Delivery(t.eventTimeMillis(), t, null));
            return;
        }
        // which node served the request (or ran the check) is the client's DNS answer: spread them evenly
        int node = Math.floorMod(t.text().hashCode(), nodes);
        long end = Math.floorDiv(t.eventTimeMillis(), PERIOD_MS) * PERIOD_MS + PERIOD_MS;
        String id = t.source().id() + "/" + node + "/" + end;
        objects.computeIfAbsent(id, k -> new LogObject(key(t.source(), node, end), t.source(), node, end,
                end + FIRST_LAG_MS + node * NODE_SPREAD_MS, new ArrayList<>())).lines().add(t);
    }

    /** Every delivery in the order it reaches Kafka (objects after records of the same instant). */
    public List<Delivery> deliveries() {
        List<Delivery> out = new ArrayList<>(direct);
        for (LogObject o : objects.values()) {
            out.add(new Delivery(o.deliverAt(), null, o));
        }
        out.sort(Comparator.comparingLong(Delivery::at).thenComparing(d -> d.object() != null));
        return out;
    }

    public List<LogObject> objects() {
        return List.copyOf(objects.values());
    }

    /** Longest time from a log line's event to its object's delivery: what {@code window.source-delay} must cover. */
    public static long longestDelayMillis(int nodes) {
        return PERIOD_MS + FIRST_LAG_MS + (nodes - 1) * NODE_SPREAD_MS;
    }

    /** Writes every object gzip-compressed under {@code dir}, at its key. */
    public void writeObjects(Path dir) {
        for (LogObject o : objects.values()) {
            Path file = dir.resolve(o.key());
            try {
                Files.createDirectories(file.getParent());
                try (OutputStream out = new BufferedOutputStream(new GZIPOutputStream(Files.newOutputStream(file), 1 << 16))) {
                    for (Telemetry t : o.lines()) {
                        out.write(t.value());
                        out.write('\n');
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + file, e);
            }
        }
    }

    static String key(Source source, int node, long periodEnd) {
        String lbId = World.LB.substring("app/".length()).replace('/', '.');
        String nodeIp = "10.0." + (100 + node) + ".17";
        String random = Long.toString(Math.floorMod((source.id() + node + periodEnd).hashCode(), 36L * 36 * 36 * 36 * 36 * 36 * 36 * 36), 36);
        String file = World.ACCOUNT + "_elasticloadbalancing_" + World.REGION + "_app." + lbId + "_"
                + END.format(Instant.ofEpochMilli(periodEnd)) + "_" + nodeIp + "_" + "0".repeat(8 - random.length()) + random + ".log.gz";
        return "AWSLogs/" + World.ACCOUNT + "/elasticloadbalancing/" + World.REGION + "/" + DAY.format(Instant.ofEpochMilli(periodEnd))
                + "/" + (source == Source.ALB_HEALTH ? "health_check_log_" : "") + file;
    }
}
