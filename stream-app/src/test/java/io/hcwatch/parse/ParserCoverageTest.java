package io.hcwatch.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The project's own samples reach every parser path a clone can test without the peer fixtures:
 * each sample line in a {@code *-variants.log} file has its expected values on the {@code #=} line
 * above it, written by hand (from HAProxy's and AWS's documented formats, and for HAProxy from what a
 * real HAProxy logged), and this test checks the parser gives exactly those, then that the samples
 * together cover every variant: every ALB type and field count, IPv6, every HAProxy message kind and
 * syslog prefix. The variant of a sample is decided from its expected values and, for HAProxy prefixes,
 * by patterns of this test's own, never by the parser.
 */
class ParserCoverageTest {

    /** The samples' year-less dates are read against this clock (2026), lines without a date at it. */
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-02T12:00:00Z"), ZoneOffset.UTC);

    private static final Map<String, Pattern> PREFIXES = new LinkedHashMap<>();

    static {
        String rfc3164Time = "(<\\d{1,3}>)?[A-Z][a-z]{2} [ 1-3]\\d \\d\\d:\\d\\d:\\d\\d ";
        String tag = "[a-z]+\\[\\d+\\]:[ \\t]";
        PREFIXES.put("rfc3164-nohost", Pattern.compile("^" + rfc3164Time + tag));
        PREFIXES.put("rfc3164-host", Pattern.compile("^" + rfc3164Time + "[\\w.-]+ " + tag));
        PREFIXES.put("rfc5424", Pattern.compile("^<\\d{1,3}>1 \\d{4}-\\d\\d-\\d\\dT\\S+ \\S+ \\S+ \\S+ \\S+ (-|(\\[[^]]*\\])+) "));
        PREFIXES.put("relay", Pattern.compile("^\\d{4}-\\d\\d-\\d\\dT\\S+ [a-z0-9]+\\.[a-z]+ \\d{4}-\\d\\d-\\d\\dT\\S+ \\S+ \\S+ \\S+ \\S+ "));
        PREFIXES.put("rfc3339-tag", Pattern.compile("^\\d{4}-\\d\\d-\\d\\dT\\S+\\t[a-z]+\\[\\d+\\]:?\\t"));
        PREFIXES.put("rfc3339-host", Pattern.compile("^\\d{4}-\\d\\d-\\d\\dT\\S+[ \\t][\\w.-]+[ \\t]" + tag));
        PREFIXES.put("console", Pattern.compile("^\\[[A-Z]+\\] +\\(\\d+\\) : "));
        PREFIXES.put("console-day-of-year", Pattern.compile("^\\[[A-Z]+\\] \\d{3}/\\d{6} \\(\\d+\\) : "));
        PREFIXES.put("console-date", Pattern.compile("^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d \\[[A-Z]+\\] +\\(\\d+\\) : "));
        PREFIXES.put("tag-only", Pattern.compile("^" + tag));
        PREFIXES.put("none", Pattern.compile("^([\\d.]+|[\\da-f:]+):\\d+ \\[|^Health check for |^Server \\S+ is |^backend "));
    }

    /** One sample line and the values expected of its parse. */
    record Sample(String file, int lineNumber, String line, Map<String, String> expected) {
        String name() {
            return file + ":" + lineNumber + " " + expected.getOrDefault("prefix", "") + " " + expected.get("record");
        }
    }

    @TestFactory
    Stream<DynamicTest> everySampleParsesToItsHandWrittenValues() {
        return Stream.of("alb-access-variants.log", "alb-health-check-variants.log", "haproxy-variants.log")
                .flatMap(f -> samples(f).stream())
                .map(s -> DynamicTest.dynamicTest(s.name(), () -> assertParses(s)));
    }

    @Test
    void albSamplesCoverEveryTypeFieldCountAndIpv6() {
        List<Sample> samples = samples("alb-access-variants.log");
        assertThat(values(samples, "type")).containsAll(Set.of("http", "https", "h2", "grpcs", "ws", "wss"));
        Set<Integer> counts = values(samples, "field_count").stream().map(Integer::valueOf).collect(Collectors.toSet());
        assertThat(counts).as("every field count from the first layout (20) to the newest (33)")
                .containsAll(IntStream.rangeClosed(20, 33).boxed().toList());
        assertThat(counts).as("a line longer than any layout known").anyMatch(c -> c > 33);
        assertThat(values(samples, "client_ip")).anyMatch(ip -> ip.contains(":"));
        assertThat(values(samples, "target_ip")).anyMatch(ip -> ip.contains(":"));
        assertThat(samples).as("a bare IPv6 client and a bracketed one").anyMatch(s -> s.line().contains(" [2001:db8"))
                .anyMatch(s -> s.line().matches("^\\S+ \\S+ \\S+ 2001:db8:[^ \\[]+ .*"));
        assertThat(values(samples, "target_ip")).as("no target (the ALB answered itself)").contains("null");
    }

    @Test
    void albHealthCheckSamplesCoverEveryOutcomeStateAndFieldForm() {
        List<Sample> samples = samples("alb-health-check-variants.log");
        assertThat(values(samples, "outcome")).containsAll(Set.of("pass", "timeout", "http_status", "connect_error", "other"));
        assertThat(values(samples, "state"))
                .containsAll(Set.of("initial", "healthy", "unhealthy", "draining", "unused", "unavailable", "null"));
        assertThat(samples).as("latency in seconds, with ms and s units, and absent")
                .anyMatch(s -> s.line().matches("^\\S+ \\S+ \\d+\\.\\d+ .*"))
                .anyMatch(s -> s.line().matches("^\\S+ \\S+ \\d+ms .*"))
                .anyMatch(s -> s.line().matches("^\"\\S+\" \"\\S+\" \"[\\d.]+s\" .*"))
                .anyMatch(s -> s.line().matches("^\\S+ \\S+ - .*"));
        assertThat(samples).as("target group as an ARN, targetgroup/name/id and a name")
                .anyMatch(s -> s.line().contains(" arn:aws:elasticloadbalancing:"))
                .anyMatch(s -> s.line().contains(" targetgroup/"))
                .anyMatch(s -> s.line().matches("^\\S+ \\S+ \\S+ \\S+ [a-z-]+ .*"));
        assertThat(samples).as("targets: IPv4, bracketed IPv6, instance id, Lambda ARN")
                .anyMatch(s -> "10.0.1.17".equals(s.expected().get("target_ip")))
                .anyMatch(s -> s.line().contains(" [fd00:"))
                .anyMatch(s -> s.line().contains(" i-0"))
                .anyMatch(s -> s.line().contains(" arn:aws:lambda:"));
    }

    @Test
    void haproxySamplesCoverEveryMessageKindAndPrefix() {
        List<Sample> samples = samples("haproxy-variants.log");
        assertThat(values(samples, "prefix")).containsAll(PREFIXES.keySet());
        Set<String> kinds = new TreeSet<>();
        for (Sample s : samples) {
            String record = s.expected().get("record");
            kinds.add(switch (record) {
                case "HaproxyRequest" -> s.expected().get("format");
                case "HealthCheckResult" -> s.line().contains("Health check for ") ? "health-check" : "server-state";
                case "BackendEvent" -> "no-server";
                default -> record;
            });
        }
        assertThat(kinds).containsAll(Set.of("http", "tcp", "error", "health-check", "server-state", "no-server"));
        assertThat(values(samples, "server")).contains("<NOSRV>");
        assertThat(values(samples, "http_method")).contains("<BADREQ>");
        assertThat(values(samples, "termination_state")).contains("PT--", "PR--");
        assertThat(values(samples, "client_ip")).anyMatch(ip -> ip.contains(":"));
        // every prefix carries traffic or a check/state/no-server message it must time
        for (String prefix : PREFIXES.keySet()) {
            assertThat(samples).filteredOn(s -> prefix.equals(s.expected().get("prefix"))).as(prefix).isNotEmpty();
        }
    }

    @Test
    void thePrefixPatternsTellThePrefixesApart() {
        for (Sample s : samples("haproxy-variants.log")) {
            List<String> matching = PREFIXES.entrySet().stream().filter(e -> e.getValue().matcher(s.line()).find())
                    .map(Map.Entry::getKey).toList();
            assertThat(matching).as(s.name() + ": " + s.line()).containsExactly(s.expected().get("prefix"));
        }
    }

    private static void assertParses(Sample s) {
        ParseResult<? extends SpecificRecord> result = parserFor(s.file()).parse(s.line());
        assertThat(result).as(s.line()).isInstanceOf(ParseResult.Ok.class);
        SpecificRecord record = ((ParseResult.Ok<? extends SpecificRecord>) result).value();
        Map<String, String> actual = new LinkedHashMap<>();
        Map<String, String> expected = new LinkedHashMap<>(s.expected());
        expected.remove("prefix");
        for (Map.Entry<String, String> e : expected.entrySet()) {
            actual.put(e.getKey(), e.getKey().equals("record") ? record.getSchema().getName() : valueOf(record, e.getKey()));
        }
        assertThat(actual).as(s.line()).containsExactlyEntriesOf(expected);
    }

    @SuppressWarnings("unchecked")
    private static LineParser<? extends SpecificRecord> parserFor(String file) {
        if (file.startsWith("alb-access")) {
            return new AlbAccessLogParser();
        }
        if (file.startsWith("alb-health-check")) {
            return new AlbHealthCheckLogParser();
        }
        HaproxyLogParser haproxy = new HaproxyLogParser(CLOCK);
        return line -> AvroForm.of(haproxy.parse(line));
    }

    /** A field by its Avro name ({@code check.timeout_ms} for a nested one), as the samples write it. */
    private static String valueOf(SpecificRecord record, String path) {
        Object value = record;
        Schema.Field field = null;
        for (String name : path.split("\\.")) {
            if (!(value instanceof SpecificRecord r)) {
                return "null";
            }
            field = r.getSchema().getField(name);
            if (field == null) {
                throw new AssertionError("no field " + name + " in " + r.getSchema().getName());
            }
            value = r.get(field.pos());
        }
        if (value instanceof Instant instant) {
            return millisOnly(field.schema()) ? instant.truncatedTo(ChronoUnit.MILLIS).toString() : instant.toString();
        }
        if (value instanceof Double d) {
            return d == Math.rint(d) ? String.valueOf(d) : String.valueOf(d);
        }
        return String.valueOf(value);
    }

    private static boolean millisOnly(Schema schema) {
        Schema s = schema;
        if (s.getType() == Schema.Type.UNION) {
            s = s.getTypes().stream().filter(t -> t.getType() != Schema.Type.NULL).findFirst().orElse(s);
        }
        return s.getLogicalType() instanceof LogicalTypes.TimestampMillis;
    }

    private static Set<String> values(List<Sample> samples, String key) {
        return samples.stream().map(s -> s.expected().get(key)).filter(v -> v != null).collect(Collectors.toSet());
    }

    static List<Sample> samples(String file) {
        List<String> lines;
        try (InputStream in = ParserCoverageTest.class.getResourceAsStream("/samples/" + file)) {
            lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Sample> out = new ArrayList<>();
        Map<String, String> pending = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.startsWith("#= ")) {
                pending = new LinkedHashMap<>();
                for (String pair : line.substring(3).split("; ")) {
                    int eq = pair.indexOf('=');
                    pending.put(pair.substring(0, eq), pair.substring(eq + 1));
                }
            } else if (!line.isBlank() && !line.startsWith("#")) {
                assertThat(pending).as(file + ":" + (i + 1) + " has no #= line above it").isNotNull();
                out.add(new Sample(file, i + 1, line, pending));
                pending = null;
            }
        }
        return out;
    }
}
