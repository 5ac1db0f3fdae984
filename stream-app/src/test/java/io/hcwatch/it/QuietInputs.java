package io.hcwatch.it;

import io.hcwatch.topology.HaproxyLines;
import io.hcwatch.topology.Source;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;

/**
 * One line on every partition of the inputs an incident of health-check JSON leaves empty (ALB access
 * and health-check logs, HAProxy logs), all at one time past the incident, for a load balancer of
 * their own that raises nothing.
 *
 * <p>The monitors wait for every input partition: an empty one is let go only after
 * {@code window.idle-timeout}, which tests that produce faster than event time passes must set to
 * tens of seconds. A partition whose last line is already past the incident holds nothing back, so
 * the incident is judged as soon as its own checks have arrived.
 */
final class QuietInputs {

    private static final List<Source> LEFT_EMPTY = List.of(Source.ALB, Source.ALB_HEALTH, Source.HAPROXY);

    private QuietInputs() {
    }

    static List<Telemetry> at(long time, int partitions) {
        List<Telemetry> out = new ArrayList<>();
        for (Source source : LEFT_EMPTY) {
            for (int p = 0; p < partitions; p++) {
                out.add(new Telemetry(source, time, line(source, Instant.ofEpochMilli(time)), keyOf(p, partitions)));
            }
        }
        return out;
    }

    private static byte[] line(Source source, Instant ts) {
        String target = "10.9.0.10:8080";
        String targetGroup = "arn:aws:elasticloadbalancing:us-east-1:111122223333:targetgroup/quiet-tg/0123456789abcdef";
        return switch (source) {
            case ALB -> ("http " + ts + " app/quiet/0123456789abcdef 203.0.113.9:40000 " + target
                    + " 0.001 0.010 0.000 200 200 100 200 \"GET http://quiet.example:80/ HTTP/1.1\" \"curl/8.0\" - - "
                    + targetGroup + " \"Root=1-00000000-000000000000000000000000\" \"-\" \"-\" 0 " + ts
                    + " \"forward\" \"-\" \"-\" \"" + target + "\" \"200\" \"-\" \"-\"").getBytes(StandardCharsets.UTF_8);
            case ALB_HEALTH -> ("http " + ts + " 0.004 " + target + " " + targetGroup + " healthy 200 -").getBytes(StandardCharsets.UTF_8);
            case HAPROXY -> HaproxyLines.request("quiet", ts);
            default -> throw new IllegalArgumentException(source.id());
        };
    }

    /** A record key the default partitioner sends to {@code partition} of {@code partitions}. */
    private static String keyOf(int partition, int partitions) {
        for (int i = 0; i < 1_000 * partitions; i++) {
            String key = "quiet-" + i;
            if (BuiltInPartitioner.partitionForKey(key.getBytes(StandardCharsets.UTF_8), partitions) == partition) {
                return key;
            }
        }
        throw new IllegalStateException("no key of " + 1_000 * partitions + " goes to partition " + partition);
    }
}
