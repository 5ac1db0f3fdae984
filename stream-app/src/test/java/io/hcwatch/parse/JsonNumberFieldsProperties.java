package io.hcwatch.parse;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.Tuple.Tuple2;
import net.jqwik.api.constraints.IntRange;

/**
 * Every numeric field of both JSON forms reads a number however a producer writes it: as an integer,
 * with a fraction, in exponent form, or quoted. The JSON is built here by hand and the expected
 * values come from how each case was built (a whole number plus less than one half reads as that
 * whole number), not from the code under test. Ranges are the ones PARSERS.md documents.
 */
class JsonNumberFieldsProperties {

    private static final long INT_MAX = Integer.MAX_VALUE;
    private static final long FIRST_MS = Instant.parse("0000-01-01T00:00:00Z").toEpochMilli();
    private static final long LAST_MS = Instant.parse("9999-12-31T23:59:59.999Z").toEpochMilli();
    private static final BigDecimal HALF = new BigDecimal("0.5");
    /** RFC 8259 §6, the grammar a quoted number must follow. */
    private static final Pattern JSON_NUMBER = Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");

    /** A numeric field: where it sits in which record, its documented range, and how to read it back. */
    record Field(String path, boolean config, long min, long max, Function<Object, Object> read) {

        ParseResult<?> parse(String written) {
            return config ? new LbConfigJson().parse(json(written)) : new HealthCheckResultJson().parse(json(written));
        }

        Object readBack(String written) {
            ParseResult<?> r = parse(written);
            assertThat(r).as(json(written)).isInstanceOf(ParseResult.Ok.class);
            return read.apply(((ParseResult.Ok<?>) r).value());
        }

        String json(String written) {
            String required = config ? "\"kind\":\"target_group\",\"id\":\"tg\""
                    : "\"target_group\":\"tg\",\"target\":\"t\",\"outcome\":\"pass\"";
            String ts = path.equals("ts") ? "" : ",\"ts\":\"2026-03-03T14:32:45Z\"";
            int dot = path.indexOf('.');
            String field = dot < 0 ? "\"" + path + "\":" + written
                    : "\"" + path.substring(0, dot) + "\":{\"" + path.substring(dot + 1) + "\":" + written + "}";
            return "{" + required + ts + "," + field + "}";
        }

        @Override
        public String toString() {
            return path;
        }
    }

    private static Field check(String path, long min, long max, Function<HealthCheckResult, Object> read) {
        return new Field(path, false, min, max, r -> read.apply((HealthCheckResult) r));
    }

    private static Field config(String path, long min, long max, Function<LbConfig, Object> read) {
        return new Field(path, true, min, max, c -> read.apply((LbConfig) c));
    }

    private static final List<Field> WHOLE = List.of(
            check("port", 0, 65_535, HealthCheckResult::getPort),
            check("latency_ms", 0, INT_MAX, HealthCheckResult::getLatencyMs),
            check("status_code", 0, 999, HealthCheckResult::getStatusCode),
            check("active_servers_left", 0, INT_MAX, HealthCheckResult::getActiveServersLeft),
            check("check.interval_ms", 0, INT_MAX, r -> r.getCheck().getIntervalMs()),
            check("check.timeout_ms", 0, INT_MAX, r -> r.getCheck().getTimeoutMs()),
            check("check.healthy_threshold", 0, INT_MAX, r -> r.getCheck().getHealthyThreshold()),
            check("check.unhealthy_threshold", 0, INT_MAX, r -> r.getCheck().getUnhealthyThreshold()),
            config("registered_targets", 0, INT_MAX, LbConfig::getRegisteredTargets),
            config("maxconn", 0, INT_MAX, LbConfig::getMaxconn),
            config("unhealthy_state_routing.min_healthy_count", 0, INT_MAX,
                    c -> c.getUnhealthyStateRouting().getMinHealthyCount()),
            config("dns_failover.min_healthy_count", 0, INT_MAX, c -> c.getDnsFailover().getMinHealthyCount()),
            config("health_check.interval_ms", 0, INT_MAX, c -> c.getHealthCheck().getIntervalMs()),
            config("health_check.timeout_ms", 0, INT_MAX, c -> c.getHealthCheck().getTimeoutMs()),
            config("health_check.healthy_threshold", 0, INT_MAX, c -> c.getHealthCheck().getHealthyThreshold()),
            config("health_check.unhealthy_threshold", 0, INT_MAX, c -> c.getHealthCheck().getUnhealthyThreshold()));

    /** Epoch milliseconds, read back as such. */
    private static final List<Field> TIMES = List.of(
            check("ts", FIRST_MS, LAST_MS, r -> r.getTs().toEpochMilli()),
            check("registered_at", FIRST_MS, LAST_MS, r -> r.getRegisteredAt().toEpochMilli()),
            config("ts", FIRST_MS, LAST_MS, c -> c.getTs().toEpochMilli()));

    private static final List<Field> PERCENT = List.of(
            config("unhealthy_state_routing.min_healthy_percent", 0, 100,
                    c -> c.getUnhealthyStateRouting().getMinHealthyPercent()),
            config("dns_failover.min_healthy_percent", 0, 100, c -> c.getDnsFailover().getMinHealthyPercent()));

    /** How a producer writes a number: shifted into exponent form or not, quoted or not. */
    record Form(int shift, String exponentMark, boolean plusSign, boolean quoted) {

        String write(BigDecimal v) {
            String text = shift == 0 ? v.toPlainString()
                    : v.movePointLeft(shift).toPlainString() + exponentMark + (plusSign && shift > 0 ? "+" : "") + shift;
            return quoted ? "\"" + text + "\"" : text;
        }
    }

    @Provide
    Arbitrary<Form> forms() {
        return Combinators.combine(Arbitraries.oneOf(Arbitraries.just(0), Arbitraries.integers().between(-6, 6)),
                Arbitraries.of("e", "E"), Arbitraries.of(true, false), Arbitraries.of(true, false)).as(Form::new);
    }

    /** Strictly between -1/2 and 1/2, zero a third of the time, with up to 20 decimals. */
    @Provide
    Arbitrary<BigDecimal> belowOneHalf() {
        Arbitrary<BigDecimal> fraction = Arbitraries.integers().between(1, 20).flatMap(scale -> Arbitraries.bigDecimals()
                .between(HALF.negate(), false, HALF, false).ofScale(scale));
        return Arbitraries.oneOf(Arbitraries.just(BigDecimal.ZERO), fraction, fraction);
    }

    private static Arbitrary<Tuple2<Field, Long>> inRange(List<Field> fields) {
        return Arbitraries.of(fields).flatMap(f -> Arbitraries.longs().between(f.min(), f.max()).map(n -> Tuple.of(f, n)));
    }

    /** A whole number below or above the field's range, by one to 10^25. */
    private static Arbitrary<Tuple2<Field, BigInteger>> outOfRange(List<Field> fields) {
        BigInteger far = BigInteger.TEN.pow(25);
        return Arbitraries.of(fields).flatMap(f -> Arbitraries.oneOf(
                Arbitraries.bigIntegers().between(BigInteger.valueOf(f.max()).add(BigInteger.ONE),
                        BigInteger.valueOf(f.max()).add(far)),
                Arbitraries.bigIntegers().between(BigInteger.valueOf(f.min()).subtract(far),
                        BigInteger.valueOf(f.min()).subtract(BigInteger.ONE))).map(n -> Tuple.of(f, n)));
    }

    @Provide
    Arbitrary<Tuple2<Field, Long>> wholeInRange() {
        return inRange(WHOLE);
    }

    @Provide
    Arbitrary<Tuple2<Field, BigInteger>> wholeOutOfRange() {
        return outOfRange(WHOLE);
    }

    @Provide
    Arbitrary<Tuple2<Field, Long>> timesInRange() {
        return inRange(TIMES);
    }

    @Provide
    Arbitrary<Tuple2<Field, BigInteger>> timesOutOfRange() {
        return outOfRange(TIMES);
    }

    @Provide
    Arbitrary<Field> wholeFields() {
        return Arbitraries.of(WHOLE);
    }

    @Provide
    Arbitrary<Field> percentFields() {
        return Arbitraries.of(PERCENT);
    }

    // ---- whole numbers -------------------------------------------------------------------------

    @Property
    void aWholeNumberPlusLessThanOneHalfReadsAsThatNumber(@ForAll("wholeInRange") Tuple2<Field, Long> c,
            @ForAll("belowOneHalf") BigDecimal offset, @ForAll("forms") Form form) {
        Field field = c.get1();
        String written = form.write(BigDecimal.valueOf(c.get2()).add(offset));
        assertThat(field.readBack(written)).as(field.json(written)).isEqualTo(Math.toIntExact(c.get2()));
    }

    @Property
    void exactHalvesRoundAwayFromZero(@ForAll("wholeInRange") Tuple2<Field, Long> c, @ForAll("forms") Form form) {
        Field field = c.get1();
        long n = c.get2();
        if (n < field.max()) {
            assertThat(field.readBack(form.write(BigDecimal.valueOf(n).add(HALF)))).isEqualTo(Math.toIntExact(n + 1));
        }
        if (n > field.min()) {
            assertThat(field.readBack(form.write(BigDecimal.valueOf(n).subtract(HALF)))).isEqualTo(Math.toIntExact(n));
        }
    }

    @Property
    void aWholeNumberOutsideTheRangeIsRejectedNamingTheField(@ForAll("wholeOutOfRange") Tuple2<Field, BigInteger> c,
            @ForAll("belowOneHalf") BigDecimal offset, @ForAll("forms") Form form) {
        String written = form.write(new BigDecimal(c.get2()).add(offset));
        assertRejected(c.get1(), written, RejectReason.BAD_NUMBER);
    }

    /** 1e999999999 must be judged without writing out its billion digits, 1e-999999999 likewise. */
    @Property(tries = 200)
    void hugeAndTinyExponentsAreJudgedWithoutExpandingTheNumber(@ForAll("wholeFields") Field field,
            @ForAll @IntRange(min = 10, max = 999_999_999) int exponent, @ForAll boolean quoted) {
        String q = quoted ? "\"" : "";
        assertRejected(field, q + "1e" + exponent + q, RejectReason.BAD_NUMBER);
        assertThat(field.readBack(q + "1e-" + exponent + q)).isEqualTo(0);
        assertThat(field.readBack(q + "-1e-" + exponent + q)).isEqualTo(0);
    }

    /** Only a string that is exactly a JSON number is read, and then exactly as that number would be. */
    @Property(tries = 3000)
    void aStringIsReadWhenItHoldsExactlyAJsonNumber(@ForAll("wholeFields") Field field,
            @ForAll("numberishText") String text) {
        String written = "\"" + new String(JsonStringEncoder.getInstance().quoteAsString(text)) + "\"";
        if (!JSON_NUMBER.matcher(text).matches()) {
            ParseResult.Rejected<?> r = assertRejected(field, written, RejectReason.BAD_NUMBER);
            if (text.chars().allMatch(ch -> ch >= ' ')) {
                assertThat(r.error()).contains("held '" + text + "'");
            }
            return;
        }
        BigInteger expected = new BigDecimal(text).setScale(0, RoundingMode.HALF_UP).toBigInteger();
        if (expected.compareTo(BigInteger.valueOf(field.min())) >= 0 && expected.compareTo(BigInteger.valueOf(field.max())) <= 0) {
            assertThat(field.readBack(written)).isEqualTo(expected.intValueExact());
        } else {
            assertRejected(field, written, RejectReason.BAD_NUMBER);
        }
    }

    /** Short enough that no exponent makes the oracle's own rounding slow. */
    @Provide
    Arbitrary<String> numberishText() {
        return Arbitraries.oneOf(
                Arbitraries.strings().withChars("0123456789.-+eE x").ofMaxLength(6),
                Arbitraries.strings().withChars("0123456789").ofMinLength(1).ofMaxLength(12),
                Arbitraries.strings().withChars("0123456789.eE-").ofMinLength(1).ofMaxLength(6),
                Arbitraries.of("", " 54", "54 ", "\t54", "54\n", "+54", "0x10", "0X1F", "NaN", "-NaN", "Infinity",
                        "-Infinity", "1_000", "1,5", "54ms", "٥٤", "５４", "null", "true"));
    }

    // ---- epoch milliseconds --------------------------------------------------------------------

    @Property
    void epochMillisecondsInAnyFormReadAsThatInstant(@ForAll("timesInRange") Tuple2<Field, Long> c,
            @ForAll("belowOneHalf") BigDecimal offset, @ForAll("forms") Form form) {
        Field field = c.get1();
        String written = form.write(BigDecimal.valueOf(c.get2()).add(offset));
        assertThat(field.readBack(written)).as(field.json(written)).isEqualTo(c.get2());
    }

    @Property
    void epochMillisecondsOutsideYears0To9999AreRejectedNamingTheField(
            @ForAll("timesOutOfRange") Tuple2<Field, BigInteger> c, @ForAll("belowOneHalf") BigDecimal offset,
            @ForAll("forms") Form form) {
        assertRejected(c.get1(), form.write(new BigDecimal(c.get2()).add(offset)), RejectReason.BAD_TIMESTAMP);
    }

    // ---- percentages ---------------------------------------------------------------------------

    @Property
    void aPercentageInRangeReadsAsTheDoubleNearestToWhatWasWritten(@ForAll("percentFields") Field field,
            @ForAll("percentages") BigDecimal p, @ForAll("forms") Form form) {
        assertThat(field.readBack(form.write(p))).isEqualTo(Double.parseDouble(p.toPlainString()));
    }

    @Property
    void aPercentageOutsideZeroToHundredIsRejectedNamingTheField(@ForAll("percentFields") Field field,
            @ForAll("notPercentages") BigDecimal p, @ForAll("forms") Form form) {
        assertRejected(field, form.write(p), RejectReason.BAD_NUMBER);
    }

    @Provide
    Arbitrary<BigDecimal> percentages() {
        return Arbitraries.integers().between(0, 20).flatMap(scale -> Arbitraries.bigDecimals()
                .between(BigDecimal.ZERO, BigDecimal.valueOf(100)).ofScale(scale));
    }

    /** Just outside 0..100 (by as little as 10^-20) or far outside. */
    @Provide
    Arbitrary<BigDecimal> notPercentages() {
        BigDecimal far = BigDecimal.valueOf(1_000_000);
        return Arbitraries.integers().between(0, 20).flatMap(scale -> Arbitraries.oneOf(
                Arbitraries.bigDecimals().between(BigDecimal.valueOf(100), false, far, true).ofScale(scale),
                Arbitraries.bigDecimals().between(far.negate(), true, BigDecimal.ZERO, false).ofScale(scale)))
                .filter(p -> p.compareTo(BigDecimal.valueOf(100)) > 0 || p.signum() < 0);
    }

    private static ParseResult.Rejected<?> assertRejected(Field field, String written, String reason) {
        ParseResult<?> r = field.parse(written);
        assertThat(r).as(field.json(written)).isInstanceOf(ParseResult.Rejected.class);
        ParseResult.Rejected<?> rejected = (ParseResult.Rejected<?>) r;
        assertThat(rejected.reason()).as(rejected.error()).isEqualTo(reason);
        assertThat(rejected.error()).contains("field '" + field.path() + "'");
        return rejected;
    }
}
