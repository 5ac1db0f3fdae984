package io.hcwatch.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.HaproxyLogFormat;
import io.hcwatch.avro.v1.HaproxyRequest;
import io.hcwatch.input.Decoded;
import io.hcwatch.input.HaproxyLine;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * HAProxy's built-in formats written as the log-format strings HAProxy defines them with
 * ({@link LogFormat#HTTPLOG}, HTTPSLOG, TCPLOG, CLF) and compiled: on every traffic line of the
 * project's samples, the real HAProxy captures and the peer corpus, a compiled format that matches
 * gives the very record the built-in parser gives, and every line in one of those formats matches one.
 */
class BuiltinLogFormatsConformanceTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2025-12-31T12:00:00Z"), ZoneOffset.UTC);
    private static final LogDates DATES = LogDates.live(CLOCK);
    private static final List<LogFormat> BUILTIN = List.of(LogFormat.compile("httplog", null),
            LogFormat.compile("httpslog", null), LogFormat.compile("tcplog", null), LogFormat.compile("clf", null));

    private final HaproxyLogParser parser = new HaproxyLogParser(CLOCK);

    @Test
    void theProjectsSamplesAndCapturesParseAsTheBuiltInParserReadsThem() {
        List<String> lines = new ArrayList<>();
        lines.addAll(Samples.lines("haproxy.log"));
        lines.addAll(Samples.lines("haproxy-variants.log"));
        lines.addAll(resource("/captures/haproxy-tarpit-flood/haproxy-tarpit-flood.log.gz"));
        lines.addAll(resource("/captures/haproxy-gray-server/haproxy-gray-server.log.gz"));
        for (String variant : new String[] {"host-raw", "host-rfc3164", "host-rfc5424", "host-stderr", "nohost-raw",
            "nohost-rfc3164", "nohost-rfc5424", "nohost-stderr"}) {
            lines.addAll(resource("/captures/haproxy-variants/" + variant + ".log"));
        }
        Outcome o = compare(lines);
        o.soft.assertAll();
        assertThat(o.traffic).as("traffic lines read").isGreaterThan(1000);
        assertThat(o.unmatched).as("traffic lines in none of the built-in formats").isEmpty();
    }

    @Test
    void thePeerCorpusParsesAsTheBuiltInParserReadsIt() {
        Path dir = PeerFixtures.requireFolder().resolve("haproxy");
        List<String> lines = new ArrayList<>(PeerFixtures.lines(dir.resolve("lines.txt")));
        lines.addAll(PeerFixtures.lines(dir.resolve("unattributed-lines.txt")));
        Outcome o = compare(lines);
        o.soft.assertAll();
        assertThat(o.traffic).isEqualTo(61);
        // a custom format logging the Host header between server and timers, which the built-in parser skips
        assertThat(o.unmatched).hasSize(9).allSatisfy(l -> assertThat(l).contains(" www-https~ "));
        // declared, that format reads them as the built-in parser does
        LogFormat withHost = LogFormat.compile("\"%ci:%cp [%tr] %ft %b/%s %[capture.req.hdr(0)] %TR/%Tw/%Tc/%Tr/%Ta %ST %B "
                + "%CC %CS %tsc %ac/%fc/%bc/%sc/%rc %sq/%bq %hr %hs %{+Q}r\"", null);
        for (String line : o.unmatched) {
            SyslogPrefix prefix = SyslogPrefixParser.parse(line);
            LogFormat.Attempt a = withHost.parse(line, prefix, prefix.zone(CLOCK), DATES);
            assertThat(a.result()).as(line).isEqualTo(parser.parse(line).map(d -> ((HaproxyLine) d).request()));
        }
    }

    private record Outcome(SoftAssertions soft, int traffic, List<String> unmatched) {
    }

    private Outcome compare(List<String> lines) {
        SoftAssertions soft = new SoftAssertions();
        List<String> unmatched = new ArrayList<>();
        int traffic = 0;
        for (String line : lines) {
            ParseResult<Decoded> builtin = parser.parse(line);
            if (!(builtin instanceof ParseResult.Ok<Decoded> ok) || !(ok.value() instanceof HaproxyLine h)
                    || h.request().getFormat() == HaproxyLogFormat.error) {
                continue;
            }
            traffic++;
            HaproxyRequest expected = h.request();
            SyslogPrefix prefix = SyslogPrefixParser.parse(line);
            boolean matched = false;
            for (LogFormat format : BUILTIN) {
                LogFormat.Attempt a = format.parse(line, prefix, prefix.zone(CLOCK), DATES);
                if (a.result() instanceof ParseResult.Ok<HaproxyRequest> compiled) {
                    matched = true;
                    soft.assertThat(compiled.value()).as(format.source() + " on " + line).isEqualTo(expected);
                }
            }
            if (!matched) {
                unmatched.add(line);
            }
        }
        return new Outcome(soft, traffic, unmatched);
    }

    private static List<String> resource(String name) {
        try (InputStream raw = BuiltinLogFormatsConformanceTest.class.getResourceAsStream(name)) {
            if (raw == null) {
                throw new IllegalArgumentException("no resource " + name);
            }
            InputStream in = name.endsWith(".gz") ? new GZIPInputStream(raw) : raw;
            return Arrays.stream(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n"))
                    .filter(l -> !l.isBlank()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
