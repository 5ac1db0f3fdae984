package io.hcwatch.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hcwatch.avro.v1.HaproxyLogFormat;
import io.hcwatch.avro.v1.HaproxyRequest;
import io.hcwatch.input.Decoded;
import io.hcwatch.input.HaproxyLine;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Log-format strings as operators write them, and what the compiled parser makes of lines and of bad formats. */
class LogFormatTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-06T03:00:00Z"), ZoneOffset.UTC);

    private static HaproxyRequest parse(Map<String, String> formats, String line) {
        ParseResult<Decoded> r = new HaproxyLogParser(LogDates.live(CLOCK), DeclaredLogFormats.of(formats)).parse(line);
        assertThat(r).as(String.valueOf(r)).isInstanceOf(ParseResult.Ok.class);
        return ((HaproxyLine) ((ParseResult.Ok<Decoded>) r).value()).request();
    }

    private static ParseResult<Decoded> result(Map<String, String> formats, String line) {
        return new HaproxyLogParser(LogDates.live(CLOCK), DeclaredLogFormats.of(formats)).parse(line);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        // as haproxy.cfg holds it: double quotes, single quotes, backslash-escaped spaces, HAProxy 3's variable
        "\"%ci:%cp [%tr] %ft %b/%s %ST %{+Q}r\"|%ci:%cp [%tr] %ft %b/%s %ST %{+Q}r",
        "'%ci:%cp [%tr] %ft %b/%s %ST %{+Q}r'|%ci:%cp [%tr] %ft %b/%s %ST %{+Q}r",
        "%ci:%cp\\ [%tr]\\ %ft\\ %b/%s\\ %ST\\ %{+Q}r|%ci:%cp [%tr] %ft %b/%s %ST %{+Q}r",
        "'{\"c\":\"%ci\"}'|{\"c\":\"%ci\"}",
        "\"${HAPROXY_HTTP_LOG_FMT}\"|" + LogFormat.HTTPLOG,
        "httplog|" + LogFormat.HTTPLOG,
        "option tcplog|" + LogFormat.TCPLOG,
    })
    void aFormatIsReadAsHaproxyReadsItsConfigurationLine(String configured, String format) {
        assertThat(LogFormat.compile(configured, "fe").source()).isEqualTo(format);
    }

    @Test
    void aFormatAsHaproxyHoldsItIsTakenAsItIs() {
        // the CLF format's "" are text of the line, which the configuration line's quoting would remove
        assertThat(LogFormat.ofHaproxyFormat(LogFormat.CLF, "fe").source()).isEqualTo(LogFormat.CLF).contains("\"\" \"\"");
        assertThat(LogFormat.compile(LogFormat.CLF, "fe").source()).doesNotContain("\"\"");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "%ci %zz|%zz is not an HAProxy log-format alias",
        "%ci:%cp %ft %|% followed by no alias",
        "%ci%cp %ft|%ci is followed by %cp with nothing between them",
        "%{+cbor}o %ci %ft|hcwatch does not read",
        "%{+Z}ci %ft|flag '+Z'",
        "%{+Q}o just text|logs no field at all",
        "%[req.hdr(host) %ft|%[ without its closing ]",
        "\"%ci %ft|the quote \" is not closed",
        "\"${MY_FMT}\"|${MY_FMT} is not one of HAProxy's log-format variables",
    })
    void aFormatHcwatchCannotReadIsRefusedSayingWhere(String configured, String message) {
        assertThatThrownBy(() -> LogFormat.compile(configured, "fe")).isInstanceOf(LogFormatException.class)
                .hasMessageContaining(message);
    }

    @Test
    void aFormatLoggingNoFrontendNeedsOneToBeDeclaredFor() {
        assertThatThrownBy(() -> DeclaredLogFormats.of(Map.of("*", "%ci [%tr] %ST"))).isInstanceOf(LogFormatException.class)
                .hasMessageStartingWith("haproxy.log-format: ").hasMessageContaining("logs no frontend");
        HaproxyRequest r = parse(Map.of("edge", "%ci:%cp [%tr] %ST %B %{+Q}r"),
                "<134>Dec  6 02:09:41 lb1 haproxy[7]: 10.0.0.9:5000 [06/Dec/2026:02:09:40.555] 503 0 \"GET / HTTP/1.1\"");
        assertThat(r.getFrontend()).isEqualTo("edge");
        assertThat(r.getStatusCode()).isEqualTo(503);
        assertThat(r.getHost()).isEqualTo("lb1");
    }

    @Test
    void aRequestLineWithoutQuotesIsSplitWhereTheRestOfTheLineStillMatches() {
        // %r unquoted holds spaces: the first split that lets the rest match is taken
        HaproxyRequest r = parse(Map.of("*", "%ci:%cp [%t] %ft %b/%s %r %ST %B"),
                "10.0.0.1:1 [06/Dec/2026:02:09:40.555] www app/s1 GET /a b HTTP/1.1 200 17");
        assertThat(r.getHttpMethod() + "|" + r.getHttpUri() + "|" + r.getHttpVersion()).isEqualTo("GET|/a b|HTTP/1.1");
        assertThat(r.getStatusCode()).isEqualTo(200);
        assertThat(r.getBytesRead()).isEqualTo(17L);
    }

    @Test
    void aLineCutBySyslogsSizeLimitKeepsWhatItHas() {
        HaproxyRequest r = parse(Map.of("*", LogFormat.HTTPSLOG),
                "10.0.0.1:1 [06/Dec/2026:02:09:40.555] www~ app/s1 0/0/1/2/3 200 17 - - ---- 1/1/0/0/0 0/0 \"GET /very/lo");
        assertThat(r.getHttpMethod()).isEqualTo("GET");
        assertThat(r.getHttpUri()).isEqualTo("/very/lo");
        assertThat(r.getHttpVersion()).isNull();
        assertThat(r.getSsl()).isTrue();
    }

    @Test
    void aLineEndingBeforeItsFormatWithoutBeingCutIsRejected() {
        // an httplog line under httpslog: the request line is closed, the TLS fields are missing
        String line = "<134>Dec  6 02:09:41 lb1 haproxy[7]: 10.0.0.1:1 [06/Dec/2026:02:09:40.555] www app/s1 0/0/1/2/3 200 17 - - ---- "
                + "1/1/0/0/0 0/0 \"GET / HTTP/1.1\"";
        LogFormat httpslog = LogFormat.compile("httpslog", null);
        SyslogPrefix prefix = SyslogPrefixParser.parse(line);
        LogFormat.Attempt a = httpslog.parse(line, prefix, ZoneOffset.UTC, LogDates.live(CLOCK));
        assertThat(a.result()).isInstanceOf(ParseResult.Rejected.class);
        assertThat(a.reached()).isGreaterThan(0);
    }

    @Test
    void hexEscapedAndQuotedFieldsAreReadBack() {
        // as HAProxy 2.6 writes them (captures/haproxy-log-formats)
        HaproxyRequest r = parse(Map.of("*", "%{+Q}ft %{+X}Ts.%ms %{+X}ci:%{+X}cp %ST %{+Q,+E}HU"),
                "\"www\" 6B14C3E5.941 7F000001:A412 200 \"/q=#22a\\]b\\\\c#22\"");
        assertThat(r.getFrontend()).isEqualTo("www");
        assertThat(r.getTs()).isEqualTo(Instant.parse("2026-12-06T02:09:41.941Z"));
        assertThat(r.getClientIp()).isEqualTo("127.0.0.1");
        assertThat(r.getClientPort()).isEqualTo(0xA412);
        assertThat(r.getHttpUri()).isEqualTo("/q=#22a]b\\c#22");
    }

    @Test
    void haproxy3JsonEncodedLinesAreReadByTheirFieldsNames() {
        // HAProxy 3's %{+json}o: one object of the named fields, a space after ':' and ','; other text is not written
        String format = "\"%{+json}o %(client_ip)ci %(client_port)cp %(request_date)tr %(fe_name_transport)ft %(be_name)b "
                + "%(server_name)s %(time_request)TR %(time_wait)Tw %(time_connect)Tc %(time_response)Tr %(time_active)Ta "
                + "%(status_code)ST %(bytes_read)B %(termination_state_cookie)tsc %(actconn)ac %(feconn)fc %(beconn)bc "
                + "%(srv_conn)sc %(retries)rc %(srv_queue)sq %(backend_queue)bq %(http_request){+Q}r\"";
        String line = "<134>1 2026-12-06T02:09:41.000+00:00 lb1 haproxy 4242 - - {\"client_ip\": \"10.1.2.3\", "
                + "\"client_port\": 40000, \"request_date\": \"06/Dec/2026:02:09:40.555\", \"fe_name_transport\": \"www~\", "
                + "\"be_name\": \"app\", \"server_name\": \"s1\", \"time_request\": 0, \"time_wait\": -1, \"time_connect\": 1, "
                + "\"time_response\": 2, \"time_active\": 3, \"status_code\": 503, \"bytes_read\": 212, "
                + "\"termination_state_cookie\": \"SC--\", \"actconn\": 5, \"feconn\": 4, \"beconn\": 3, \"srv_conn\": 2, "
                + "\"retries\": 1, \"srv_queue\": 0, \"backend_queue\": 0, \"http_request\": \"GET /x\\u0020y HTTP/1.1\"}";
        HaproxyRequest r = parse(Map.of("*", format), line);
        HaproxyRequest expected = parse(Map.of(), "<134>1 2026-12-06T02:09:41.000+00:00 lb1 haproxy 4242 - - 10.1.2.3:40000 "
                + "[06/Dec/2026:02:09:40.555] www~ app/s1 0/-1/1/2/3 503 212 - - SC-- 5/4/3/2/1 0/0 \"GET /x y HTTP/1.1\"");
        assertThat(r).isEqualTo(expected);
        assertThat(r.getFormat()).isEqualTo(HaproxyLogFormat.http);
    }

    @Test
    void aLineOfAnotherFrontendThatFitsAFormatIsNotTakenForIt() {
        // www logs JSON; api's httplog line must not be read with www's format, and is read as httplog
        String httplog = "10.0.0.1:1 [06/Dec/2026:02:09:40.555] api app/s1 0/0/1/2/3 200 17 - - ---- 1/1/0/0/0 0/0 \"GET / HTTP/1.1\"";
        HaproxyRequest r = parse(Map.of("www", "httplog"), httplog);
        assertThat(r.getFrontend()).isEqualTo("api");
        assertThat(r).isEqualTo(parse(Map.of(), httplog));
    }

    @Test
    void aLineNoFormatMatchesSaysHowToDeclareItsFormat() {
        ParseResult<Decoded> json = result(Map.of(), "<134>Dec  6 02:09:41 haproxy[7]: {\"ci\":\"10.0.0.1\",\"fe\":\"www\"}");
        assertThat(json).isInstanceOfSatisfying(ParseResult.Rejected.class, r -> {
            assertThat(r.reason()).isEqualTo(RejectReason.UNKNOWN_FORMAT);
            assertThat(r.error()).contains("haproxy.log-format.<frontend>=");
        });
        ParseResult<Decoded> custom = result(Map.of(), "10.0.0.1:1 [06/Dec/2026:02:09:40.555] www app/s1 200 17 \"GET / HTTP/1.1\"");
        assertThat(custom).isInstanceOfSatisfying(ParseResult.Rejected.class,
                r -> assertThat(r.error()).contains("haproxy.log-format.<frontend>="));
    }

    @Test
    void aDeclaredFormatsOwnRejectionIsShownWhenItGotFurthest() {
        ParseResult<Decoded> r = result(Map.of("www", "'{\"fe\":\"%f\",\"status\":%ST,\"ts\":\"%t\"}'"),
                "{\"fe\":\"www\",\"status\":abc,\"ts\":\"06/Dec/2026:02:09:40.555\"}");
        assertThat(r).isInstanceOfSatisfying(ParseResult.Rejected.class, x -> {
            assertThat(x.reason()).isEqualTo(RejectReason.BAD_NUMBER);
            assertThat(x.error()).contains("%ST").contains("abc");
        });
    }
}
