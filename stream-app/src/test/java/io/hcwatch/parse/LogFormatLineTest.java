package io.hcwatch.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.HaproxyRequest;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How a text log-format finds where each value ends: by a char or a string, trying further ends, unescaping, cut lines. */
class LogFormatLineTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-06T03:00:00Z"), ZoneOffset.UTC);

    private static LogFormat.Attempt attempt(String format, String line) {
        return LogFormat.compile(format, "fe").parse(line, SyslogPrefixParser.parse(line), ZoneOffset.UTC,
                LogDates.live(CLOCK));
    }

    /** frontend,backend,server,client ip,client port,status,method,uri,version; "null" for what is absent */
    private static String fields(HaproxyRequest r) {
        return String.join(",", r.getFrontend(), r.getBackend(), r.getServer(), r.getClientIp(),
                String.valueOf(r.getClientPort()), String.valueOf(r.getStatusCode()), r.getHttpMethod(), r.getHttpUri(),
                r.getHttpVersion());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        // a text of two characters after a field is searched as a whole: the value may hold its first one
        "two-character text ends the value|%ci:%cp %ft::%b/%s %ST|10.0.0.1:80 w:x::app/s1 200"
                + "|w:x,app,s1,10.0.0.1,80,200,null,null,null",
        // IPv6 holds ':': each ':' is tried until the rest of the line matches (the port then reads)
        "an address tries each ':' until the rest matches|%ci:%cp %ft %b/%s %ST|2001:db8::7:443 www app/s1 200"
                + "|www,app,s1,2001:db8::7,443,200,null,null,null",
        // +E: a ']' after a backslash belongs to the value, and the backslash goes
        "an escaped delimiter is part of the value|%ci:%cp %ft [%{+E}HU] %ST|10.0.0.1:80 www [/a\\]b] 200"
                + "|www,null,null,10.0.0.1,80,200,null,/a]b,null",
        "spaces after the last field are not part of it|%ci:%cp %ft %b/%s %ST|`10.0.0.1:80 www app/s1 200   `"
                + "|www,app,s1,10.0.0.1,80,200,null,null,null",
        "several spaces are one separator|%ci:%cp %ft %b/%s %ST|10.0.0.1:80    www  app/s1 200"
                + "|www,app,s1,10.0.0.1,80,200,null,null,null",
        // syslog's size limit cut the line inside the quotes: what follows is absent
        "a quoted value without its closing quote ends the line|%ci:%cp %ft %b/%s %{+Q}r %ST"
                + "|10.0.0.1:80 www app/s1 \"GET /lo|www,app,s1,10.0.0.1,80,null,GET,/lo,null",
        // %r unquoted holds spaces: its first end (after GET) leaves a line the rest does not match
        "free text tries its next end when the rest fails|%ci:%cp %ft %r %ST|10.0.0.1:80 www GET /a HTTP/1.1 503"
                + "|www,null,null,10.0.0.1,80,503,GET,/a,HTTP/1.1",
        // free text with no end found keeps the rest of the line, as a cut line does
        "free text without its end keeps the rest|%ci:%cp %ft %{+Q}ST %r;%b|10.0.0.1:80 www \"404\" GET /b"
                + "|www,null,null,10.0.0.1,80,404,GET,/b,null",
        "absent captured headers take no place|%ci:%cp %ft %hr %hs %ST|10.0.0.1:80 www {h1}  301"
                + "|www,null,null,10.0.0.1,80,301,null,null,null",
    })
    void aMatchingLineGivesItsFields(String scenario, String format, String line, String expected) {
        LogFormat.Attempt a = attempt(format, line);
        assertThat(a.result()).as(String.valueOf(a.result())).isInstanceOf(ParseResult.Ok.class);
        assertThat(fields(((ParseResult.Ok<HaproxyRequest>) a.result()).value())).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "a value of the wrong shape|%ci:%cp %ft %b/%s %ST|10.0.0.1:80 www app/s1 abc|bad_number|%ST|23",
        "text of the format missing|%ci:%cp %ft %b/%s %ST|10.0.0.1:80 www app-s1 200|field_count|%b|16",
        "an address whose every ':' leaves a bad port|%ci:%cp %ft|1:2:x www|bad_address|%cp|4",
        "the line goes on after the format|%ci:%cp %ft [%ST]|10.0.0.1:80 www [200] more|bad_field|text ']'|21",
        // Instant.ofEpochSecond throws past year 1,000,000,000: such a line must be refused, not thrown on
        "accept seconds past year 9999|%ci:%cp %ft %Ts %ST|10.0.0.1:80 www 99999999999999999 200|bad_number|%Ts|16",
    })
    void aLineTheFormatDoesNotMatchSaysWhereItParts(String scenario, String format, String line, String reason,
                                                    String where, int reached) {
        LogFormat.Attempt a = attempt(format, line);
        assertThat(a.result()).isInstanceOfSatisfying(ParseResult.Rejected.class, r -> {
            assertThat(r.reason()).isEqualTo(reason);
            assertThat(r.error()).contains(where);
        });
        assertThat(a.reached()).isEqualTo(reached);
    }

    @Test
    void aLineThatWouldTakeTooManyStepsIsRejectedInsteadOfSearchedToTheEnd() {
        // every ':' of the address is an end to try, each one costing the rest of the format again
        String line = "1" + ":1".repeat(400) + " www app/s1 200 x";
        LogFormat.Attempt a = attempt("%ci:%cp %ft %b/%s %ST", line);
        assertThat(a.result()).isInstanceOfSatisfying(ParseResult.Rejected.class,
                r -> assertThat(r.error()).contains("fewer than 512 steps"));
    }
}
