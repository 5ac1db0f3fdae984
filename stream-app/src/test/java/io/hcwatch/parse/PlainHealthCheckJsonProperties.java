package io.hcwatch.parse;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import io.hcwatch.avro.v1.CheckConfig;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.TargetState;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.junit.jupiter.api.Test;

/**
 * The plain-shape reader never changes what a line reads to: for JSON built around the plain shape
 * with every kind of deviation the contract takes or refuses (numbers quoted or with fractions,
 * epoch milliseconds, offsets, blanks, nulls, wrong types, duplicates, unknown fields, trailing
 * text), the parser's answer equals the one {@link JsonFields} alone gives, record or rejection
 * with its message. And it is taken: a collector's plain line does not go the slow way.
 */
class PlainHealthCheckJsonProperties {

    private final HealthCheckResultJson parser = new HealthCheckResultJson();
    private final PlainHealthCheckJson plain = new PlainHealthCheckJson(new JsonFactory());

    @Property(tries = 10000)
    void readsEveryLineAsTheFieldReaderDoes(@ForAll("lines") String json) {
        ParseResult<HealthCheckResult> expected = HealthCheckResultJson.readFields(json);
        assertThat(parser.parse(json)).as(json).isEqualTo(expected);
        assertThat(parser.parse(json.getBytes(StandardCharsets.UTF_8))).as(json).isEqualTo(expected);
    }

    @Property(tries = 1000)
    void takesTheLinesAWriterWrites(@ForAll("records") HealthCheckResult r) {
        String json = HealthCheckResultJson.write(r);
        assertThat(plain.read(json)).as(json).isEqualTo(r);
        assertThat(plain.read(json.getBytes(StandardCharsets.US_ASCII))).as(json).isEqualTo(r);
    }

    @Test
    void leavesEveryOtherFormToTheFieldReader() {
        String base = "\"target_group\":\"tg\",\"target\":\"t\",\"outcome\":\"pass\"";
        for (String json : List.of(
                "{" + base + ",\"ts\":1772548365120}",
                "{" + base + ",\"ts\":\"2026-03-03T15:32:45.120+01:00\"}",
                "{" + base + ",\"ts\":\"2026-03-03T14:32:45Z\",\"port\":\"443\"}",
                "{" + base + ",\"ts\":\"2026-03-03T14:32:45Z\",\"latency_ms\":12.4}",
                "{" + base + ",\"ts\":\"2026-03-03T14:32:45Z\",\"status_code\":1000}",
                "{" + base + ",\"ts\":\"2026-03-03T14:32:45Z\",\"target\":\"u\"}",
                "{" + base + ",\"ts\":\"2026-03-03T14:32:45Z\"} {}",
                "{\"target_group\":\" \",\"target\":\"t\",\"outcome\":\"pass\",\"ts\":\"2026-03-03T14:32:45Z\"}")) {
            assertThat(plain.read(json)).as(json).isNull();
        }
        assertThat(plain.read("{" + base + ",\"ts\":\"2026-03-03T14:32:45.1234Z\",\"x\":[{\"y\":[1]}]}"))
                .isEqualTo(new HealthCheckResult(Instant.parse("2026-03-03T14:32:45.123Z"), null, null, "tg", "t", null,
                        null, null, CheckOutcome.pass, null, null, null, null, null, null, null));
    }

    @Provide
    Arbitrary<HealthCheckResult> records() {
        Arbitrary<String> text = Arbitraries.strings().withCharRange(' ', '~').ofMinLength(1).ofMaxLength(20)
                .filter(s -> !s.isBlank());
        Arbitrary<Instant> time = Arbitraries.longs().between(0, 4_102_444_800_000L).map(Instant::ofEpochMilli);
        Arbitrary<Integer> count = Arbitraries.integers().between(0, Integer.MAX_VALUE).injectNull(0.3);
        Arbitrary<CheckConfig> config = Combinators.combine(text.injectNull(0.3), count, count, count, count)
                .as(CheckConfig::new).injectNull(0.3);
        return Combinators.combine(
                Combinators.combine(time, text.injectNull(0.3), text.injectNull(0.3), text, text, text.injectNull(0.3),
                        Arbitraries.integers().between(0, 65_535).injectNull(0.3), text.injectNull(0.3)).as(java.util.Arrays::<Object>asList),
                Combinators.combine(Arbitraries.of(CheckOutcome.class), count, Arbitraries.integers().between(0, 999).injectNull(0.3),
                        Arbitraries.of(TargetState.class).injectNull(0.3), text.injectNull(0.3), config,
                        time.injectNull(0.3), count).as(java.util.Arrays::<Object>asList))
                .as((a, b) -> new HealthCheckResult((Instant) a.get(0), (String) a.get(1), (String) a.get(2),
                        (String) a.get(3), (String) a.get(4), (String) a.get(5), (Integer) a.get(6), (String) a.get(7),
                        (CheckOutcome) b.get(0), (Integer) b.get(1), (Integer) b.get(2), (TargetState) b.get(3),
                        (String) b.get(4), (CheckConfig) b.get(5), (Instant) b.get(6), (Integer) b.get(7)));
    }

    /** Every form a field may be written in besides the plain one, the contract's and not. */
    private static final List<String> OTHER_FORMS = List.of("null", "\"\"", "\" \"", "true", "[]", "{}", "[1]", "-1",
            "0", "-0", "1e2", "12.5", "\"12\"", "\"x\"", "2147483648", "99999999999999999999", "65536", "1000",
            "1772548365120", "\"1772548365120\"", "\"2026-03-03T14:32:45Z\"", "\"2026-03-03T15:32:45+01:00\"",
            "\"2026-03-03T14:32:45.123456789Z\"", "\"2026-02-30T14:32:45Z\"", "\"pass\"", "\"healthy\"", "\"PASS\"",
            "{\"path\":\"/h\",\"interval_ms\":5000}", "{\"interval_ms\":\"5000\"}", "{\"timeout_ms\":-1}",
            "{\"path\":null,\"path\":\"/x\"}", "{\"unhealthy_threshold\":3,\"x\":{\"y\":[]}}", "1e2147483648", "1.0",
            "{\"a\":[1.5]}", "{\"a\":[1e2147483648]}", "[[[\"x\"]],{}]", "123456789012345678901234567890", "NaN", "054");

    /** A field in one of its plain forms. */
    private record Field(String name, Arbitrary<String> plain, boolean required) {
    }

    private static final Arbitrary<String> TEXT = Arbitraries.of("\"tg\"", "\"t-1\"", "\"10.0.0.1\"", "\"a\\\"b\"", "\"\u00fc\"");
    private static final Arbitrary<String> INTS = Arbitraries.integers().between(0, 70_000).map(String::valueOf);
    private static final Arbitrary<String> TIMES = Arbitraries.of("\"2026-03-03T14:32:45Z\"", "\"2026-03-03T14:32:45.120Z\"",
            "\"2026-03-03T14:32:45.5Z\"");
    private static final List<Field> FIELDS = List.of(new Field("ts", TIMES, true), new Field("source", TEXT, false),
            new Field("lb", TEXT, false), new Field("target_group", TEXT, true), new Field("target", TEXT, true),
            new Field("target_ip", TEXT, false), new Field("port", INTS, false), new Field("az", TEXT, false),
            new Field("outcome", Arbitraries.of("\"pass\"", "\"timeout\"", "\"refused\""), true),
            new Field("latency_ms", INTS, false), new Field("status_code", INTS, false),
            new Field("state", Arbitraries.of("\"healthy\"", "\"unhealthy\"", "\"draining\""), false),
            new Field("reason", TEXT, false),
            new Field("check", Arbitraries.of("{\"path\":\"/health\",\"interval_ms\":10000,\"timeout_ms\":5000,"
                    + "\"healthy_threshold\":3,\"unhealthy_threshold\":2}", "{}", "{\"path\":\"/\"}"), false),
            new Field("registered_at", TIMES, false), new Field("active_servers_left", INTS, false),
            new Field("unknown", TEXT, false));

    /**
     * A line in the plain shape (optional fields absent a quarter of the time, required ones now
     * and then), with up to two fields written in another form, now and then a field twice and
     * something after the object: most deviations land on an otherwise plain line, where the
     * plain reader would take a line it should not.
     */
    @Provide
    Arbitrary<String> lines() {
        List<Arbitrary<String>> members = new ArrayList<>();
        for (Field f : FIELDS) {
            members.add(Arbitraries.frequencyOf(
                    Tuple.of(f.required() ? 30 : 3, f.plain().map(v -> "\"" + f.name() + "\":" + v)),
                    Tuple.of(1, Arbitraries.just(""))));
        }
        Arbitrary<List<Tuple.Tuple2<Integer, String>>> deviations = Combinators.combine(
                Arbitraries.integers().between(0, FIELDS.size() - 1), Arbitraries.of(OTHER_FORMS)).as(Tuple::of)
                .list().ofMaxSize(2);
        Arbitrary<String> tail = Arbitraries.frequencyOf(Tuple.of(12, Arbitraries.just("")),
                Tuple.of(1, Arbitraries.of(" ", "\n", " {}", "x", "]", ",")));
        return Combinators.combine(Combinators.combine(members).as(List::copyOf), deviations, tail, Arbitraries.randoms())
                .as((written, changed, end, random) -> {
                    List<String> present = new ArrayList<>(written);
                    for (Tuple.Tuple2<Integer, String> d : changed) {
                        present.set(d.get1(), "\"" + FIELDS.get(d.get1()).name() + "\":" + d.get2());
                    }
                    present.removeIf(String::isEmpty);
                    java.util.Collections.shuffle(present, random);
                    if (!present.isEmpty() && random.nextInt(10) == 0) {
                        present.add(present.get(random.nextInt(present.size())));
                    }
                    return "{" + String.join(",", present) + "}" + end;
                });
    }
}
