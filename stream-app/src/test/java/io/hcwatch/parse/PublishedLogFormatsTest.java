package io.hcwatch.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.ConfigKind;
import io.hcwatch.avro.v1.HaproxyRequest;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.haproxy.BuiltinLogFormats;
import io.hcwatch.input.Decoded;
import io.hcwatch.input.HaproxyLine;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Formats published per host and frontend beside those the settings declare, and which one reads a line. */
class PublishedLogFormatsTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-06T03:00:00Z"), ZoneOffset.UTC);
    private static final String CUSTOM = "%ft %b/%s %ci:%cp [%tr] %ST %B %{+Q}r";
    private static final String NO_FRONTEND = "%ci:%cp [%tr] %b/%s %ST %B %{+Q}r";
    /** A line of {@link #CUSTOM} from host lb1's frontend www. */
    private static final String WWW_LB1 = "<134>2026-12-06T02:00:00+00:00 lb1 haproxy[7]: www app/web1 10.0.0.9:5123 "
            + "[06/Dec/2026:02:00:00.120] 200 117 \"GET /a HTTP/1.1\"";

    private static LbConfig frontend(String host, String frontend, String format) {
        return LbConfig.newBuilder().setKind(ConfigKind.haproxy_frontend).setId(host + "/" + frontend)
                .setTs(Instant.parse("2026-12-06T01:00:00Z")).setHost(host).setFrontend(frontend).setLogFormat(format).build();
    }

    private static ParseResult<Decoded> parse(HaproxyLogFormats formats, String line) {
        return new HaproxyLogParser(LogDates.live(CLOCK), formats).parse(line);
    }

    @Test
    void aPublishedFormatReadsItsHostsFrontendOnly() {
        PublishedLogFormats formats = new PublishedLogFormats(HaproxyLogFormats.none());
        assertThat(parse(formats, WWW_LB1)).isInstanceOf(ParseResult.Rejected.class);

        assertThat(formats.publish(frontend("lb1", "www", CUSTOM))).isNull();
        ParseResult<Decoded> r = parse(formats, WWW_LB1);
        assertThat(r).isInstanceOf(ParseResult.Ok.class);
        HaproxyRequest q = ((HaproxyLine) ((ParseResult.Ok<Decoded>) r).value()).request();
        assertThat(q.getFrontend() + " " + q.getServer() + " " + q.getClientIp() + " " + q.getStatusCode() + " " + q.getHttpUri())
                .isEqualTo("www web1 10.0.0.9 200 /a");
        formats.publish(frontend("lb2", "api", CUSTOM));
        assertThat(parse(formats, WWW_LB1.replace(" lb1 ", " lb2 "))).as("another host's www").isInstanceOf(ParseResult.Rejected.class);
        assertThat(parse(formats, WWW_LB1.replace(" lb1 ", " lb1.example.net "))).as("a host the collector does not name")
                .isInstanceOf(ParseResult.Ok.class);
        assertThat(formats.forFrontend("lb1", "api")).isNull();
    }

    @Test
    void theSettingsWinOverWhatIsPublished() {
        DeclaredLogFormats declared = DeclaredLogFormats.of(Map.of("www", "httplog"));
        PublishedLogFormats formats = new PublishedLogFormats(declared);
        formats.publish(frontend("lb1", "www", CUSTOM));

        assertThat(formats.forFrontend("lb1", "www")).isSameAs(declared.forFrontend("lb1", "www"));
        assertThat(parse(formats, WWW_LB1)).isInstanceOf(ParseResult.Rejected.class);

        PublishedLogFormats everyFrontend = new PublishedLogFormats(DeclaredLogFormats.of(Map.of("*", "tcplog")));
        everyFrontend.publish(frontend("lb1", "www", CUSTOM));
        assertThat(everyFrontend.forFrontend("lb1", "www").source()).isEqualTo(BuiltinLogFormats.TCPLOG);
    }

    @Test
    void httplogAndTcplogAreLeftToTheBuiltInParsersAndOtherOptionsAreCompiled() {
        PublishedLogFormats formats = new PublishedLogFormats(HaproxyLogFormats.none());
        formats.publish(frontend("lb1", "web", BuiltinLogFormats.HTTPLOG));
        formats.publish(frontend("lb1", "raw", BuiltinLogFormats.TCPLOG));
        formats.publish(frontend("lb1", "tls", BuiltinLogFormats.HTTPSLOG));

        assertThat(formats.forFrontend("lb1", "web")).isNull();
        assertThat(formats.forFrontend("lb1", "raw")).isNull();
        assertThat(formats.forFrontend("lb1", "tls").source()).isEqualTo(BuiltinLogFormats.HTTPSLOG);
        assertThat(formats.declared()).extracting(LogFormat::source).containsExactly(BuiltinLogFormats.HTTPSLOG);
        ParseResult<Decoded> httplog = parse(formats, "<134>Dec  6 02:00:00 lb1 haproxy[7]: 10.0.0.9:5123 "
                + "[06/Dec/2026:02:00:00.120] web app/web1 0/0/0/1/1 200 117 - - ---- 1/1/0/0/0 0/0 \"GET /a HTTP/1.1\"");
        assertThat(httplog).isInstanceOf(ParseResult.Ok.class);
    }

    @Test
    void hostsThatAgreeShareOneCompiledFormatAndALineNamingNoHostTakesIt() {
        PublishedLogFormats formats = new PublishedLogFormats(HaproxyLogFormats.none());
        formats.publish(frontend("lb1", "www", CUSTOM));
        formats.publish(frontend("lb2", "www", CUSTOM));

        assertThat(formats.declared()).hasSize(1);
        assertThat(formats.forFrontend("lb1", "www")).isSameAs(formats.forFrontend("lb2", "www"));
        String noHost = WWW_LB1.replace("<134>2026-12-06T02:00:00+00:00 lb1 ", "<134>Dec  6 02:00:00 ");
        assertThat(parse(formats, noHost)).isInstanceOf(ParseResult.Ok.class);
        assertThat(parse(formats, WWW_LB1.replace(" lb1 ", " localhost "))).isInstanceOf(ParseResult.Ok.class);

        formats.publish(frontend("lb2", "www", "{\"c\":\"%ci\",\"fe\":\"%ft\"}"));
        assertThat(formats.forFrontend(null, "www")).as("hosts disagree: a line naming none cannot be placed").isNull();
        assertThat(parse(formats, noHost)).isInstanceOf(ParseResult.Rejected.class);
        assertThat(parse(formats, WWW_LB1)).isInstanceOf(ParseResult.Ok.class);
    }

    @Test
    void aFormatThatLogsNoFrontendIsCompiledForTheFrontendThatPublishesIt() {
        PublishedLogFormats formats = new PublishedLogFormats(HaproxyLogFormats.none());
        formats.publish(frontend("lb1", "www", NO_FRONTEND));
        formats.publish(frontend("lb1", "api", NO_FRONTEND));

        assertThat(formats.forFrontend("lb1", "www").frontend()).isEqualTo("www");
        assertThat(formats.forFrontend("lb1", "api").frontend()).isEqualTo("api");
        ParseResult<Decoded> r = parse(formats, "<134>2026-12-06T02:00:00+00:00 lb1 haproxy[7]: 10.0.0.9:5123 "
                + "[06/Dec/2026:02:00:00.120] app/web1 200 117 \"GET /a HTTP/1.1\"");
        assertThat(r).isInstanceOf(ParseResult.Ok.class);
        assertThat(((HaproxyLine) ((ParseResult.Ok<Decoded>) r).value()).request().getFrontend()).isIn("www", "api");
    }

    @Test
    void aReloadThatChangesOrDropsTheFormatIsFollowed() {
        PublishedLogFormats formats = new PublishedLogFormats(HaproxyLogFormats.none());
        formats.publish(frontend("lb1", "www", CUSTOM));
        assertThat(parse(formats, WWW_LB1)).isInstanceOf(ParseResult.Ok.class);

        formats.publish(frontend("lb1", "www", BuiltinLogFormats.HTTPLOG));
        assertThat(parse(formats, WWW_LB1)).isInstanceOf(ParseResult.Rejected.class);
        assertThat(formats.declared()).isEmpty();

        formats.publish(frontend("lb1", "www", CUSTOM));
        formats.publish(frontend("lb1", "www", null));
        assertThat(formats.forFrontend("lb1", "www")).isNull();
        assertThat(formats.declared()).isEmpty();
    }

    @Test
    void aRecordOlderThanTheOneTakenIsIgnored() {
        PublishedLogFormats formats = new PublishedLogFormats(HaproxyLogFormats.none());
        LbConfig now = frontend("lb1", "www", CUSTOM);
        LbConfig earlier = LbConfig.newBuilder(frontend("lb1", "www", BuiltinLogFormats.HTTPLOG))
                .setTs(now.getTs().minusSeconds(5)).build();
        formats.publish(now);
        formats.publish(earlier);

        assertThat(formats.forFrontend("lb1", "www").source()).isEqualTo(CUSTOM);
    }

    @Test
    void aFormatThatCannotBeReadIsRefusedWithWhyAndLeavesTheBuiltInParsers() {
        PublishedLogFormats formats = new PublishedLogFormats(HaproxyLogFormats.none());
        assertThat(formats.publish(frontend("lb1", "www", "%ci %zz %ft"))).contains("%zz");
        assertThat(formats.forFrontend("lb1", "www")).isNull();
        assertThat(formats.declared()).isEmpty();
        assertThat(formats.publish(LbConfig.newBuilder().setKind(ConfigKind.haproxy_process).setId("lb1")
                .setTs(Instant.EPOCH).setHost("lb1").setMaxconn(10).build())).isNull();
    }
}
