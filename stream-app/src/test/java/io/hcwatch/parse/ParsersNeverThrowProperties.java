package io.hcwatch.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Whatever arrives on a raw topic, every parser answers with a ParseResult and never throws. */
class ParsersNeverThrowProperties {

    private static final List<LineParser<?>> PARSERS = List.of(new AlbAccessLogParser(),
            new AlbHealthCheckLogParser(),
            new HaproxyLogParser(Clock.fixed(Instant.parse("2026-03-03T00:00:00Z"), ZoneOffset.UTC)),
            new HealthCheckResultJson(), new LbConfigJson(),
            new HaproxyLogParser(LogDates.live(Clock.fixed(Instant.parse("2026-12-06T00:00:00Z"), ZoneOffset.UTC)),
                    DeclaredLogFormats.of(LogFormatCaptureTest.formatsOf(LogFormatCaptureTest.text(
                            "/captures/haproxy-log-formats/haproxy.cfg")))));

    private static final List<String> REAL_LINES = realLines();

    private static List<String> realLines() {
        List<String> lines = new ArrayList<>();
        for (String file : List.of("alb-access.log", "alb-health-check.log", "haproxy.log",
                "health-check-results.jsonl", "lb-config.jsonl")) {
            lines.addAll(Samples.lines(file));
        }
        lines.addAll(List.of(LogFormatCaptureTest.text("/captures/haproxy-log-formats/captured.log").split("\n")));
        // near misses: damage turns them into accepted records as often as into other rejections
        for (String file : List.of("health-check-results-rejected.jsonl", "lb-config-rejected.jsonl")) {
            Samples.tabbed(file).forEach(reasonAndLine -> lines.add(reasonAndLine[1]));
        }
        return lines;
    }

    private static void answersWithoutThrowing(String input) {
        for (LineParser<?> parser : PARSERS) {
            ParseResult<?> result = parser.parse(input);
            assertThat(result).isNotNull();
            if (result instanceof ParseResult.Rejected<?> r) {
                assertThat(r.reason()).matches("[a-z_]{3,20}");
                assertThat(r.error()).isNotBlank().hasSizeLessThan(1_000);
            }
        }
    }

    @Property(tries = 2000)
    void anyStringIsParsedOrRejected(@ForAll String input) {
        answersWithoutThrowing(input);
    }

    @Property(tries = 2000)
    void anyBytesAreParsedOrRejected(@ForAll byte[] input) {
        for (LineParser<?> parser : PARSERS) {
            assertThat(parser.parse(input)).isNotNull();
        }
    }

    /** Random strings rarely get past the first field; damaged real lines reach every branch. */
    @Property(tries = 5000)
    void damagedRealLinesAreParsedOrRejected(@ForAll("damagedLines") String input) {
        answersWithoutThrowing(input);
        answersWithoutThrowing(input.substring(0, input.length() / 2));
        for (LineParser<?> parser : PARSERS) {
            assertThat(parser.parse(input.getBytes(StandardCharsets.UTF_8))).isNotNull();
        }
    }

    @Provide
    Arbitrary<String> damagedLines() {
        Arbitrary<String> line = Arbitraries.of(REAL_LINES);
        Arbitrary<String> replacement = Arbitraries.oneOf(
                Arbitraries.of("", " ", "\"", "-", "-1", "[", "]", "{", "}", "/", ":", "+", "0", "99999999999999999999",
                        "\t", "\n", "é", "\uD83D\uDE00", "\uD800", ",", "null", "\\"),
                // numbers at the edges of what the JSON readers take: exponents, halves, quoted forms
                Arbitraries.of("1e400", "1e2147483648", "1e-2147483647", "1E+3", "-0.5", "54.5", ".", "e", "e9", "\"54\"",
                        "\"0x10\"", "\"-0\"", "\"1e999999999\"", "\"1e-999999999\""),
                Arbitraries.strings().ofMaxLength(4));
        return Combinators.combine(line, Arbitraries.doubles().between(0, 1), Arbitraries.integers().between(0, 6),
                replacement).as((l, at, cut, with) -> {
                    int i = (int) (at * l.length());
                    int j = Math.min(l.length(), i + cut);
                    return l.substring(0, i) + with + l.substring(j);
                });
    }
}
