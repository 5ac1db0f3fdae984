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
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * What a real HAProxy 2.6 logged for the same requests through six frontends with six formats
 * (captures/haproxy-log-formats: config, script, capture), read with each frontend's format as
 * its haproxy.cfg declares it: every line gives the values of the request that was sent.
 */
class LogFormatCaptureTest {

    private static final String DIR = "/captures/haproxy-log-formats/";
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-06T03:00:00Z"), ZoneOffset.UTC);
    /** The URI sent, as HAProxy logs it: '"' encoded as #22, ']' and '\' as they are. */
    private static final String URI = "/api/cart?id=42&q=#22a]b\\c#22";

    @Test
    void everyFrontendsLinesGiveTheRequestsThatWereSent() {
        DeclaredLogFormats formats = DeclaredLogFormats.of(formatsOf(text(DIR + "haproxy.cfg")));
        HaproxyLogParser parser = new HaproxyLogParser(LogDates.live(CLOCK), formats);
        Map<String, List<HaproxyRequest>> byFrontend = new LinkedHashMap<>();
        SoftAssertions soft = new SoftAssertions();
        for (String line : text(DIR + "captured.log").split("\n")) {
            ParseResult<Decoded> result = parser.parse(line);
            soft.assertThat(result).as(line).isInstanceOf(ParseResult.Ok.class);
            if (result instanceof ParseResult.Ok<Decoded> ok && ok.value() instanceof HaproxyLine h) {
                byFrontend.computeIfAbsent(h.request().getFrontend(), k -> new ArrayList<>()).add(h.request());
            }
        }
        soft.assertThat(byFrontend).containsOnlyKeys("fe_httplog", "fe_clf", "fe_custom", "fe_json", "fe_dates", "fe_tcp");
        byFrontend.forEach((frontend, records) -> {
            for (HaproxyRequest r : records) {
                String label = frontend + " " + r;
                soft.assertThat(r.getTs()).as(label).isBetween(Instant.parse("2026-12-06T02:09:40Z"),
                        Instant.parse("2026-12-06T02:09:43Z"));
                if (!frontend.equals("fe_dates")) {
                    soft.assertThat(r.getClientIp()).as(label).isEqualTo("127.0.0.1");
                    soft.assertThat(r.getClientPort()).as(label).isBetween(1024, 65_535);
                }
            }
            if (frontend.equals("fe_tcp")) {
                HaproxyRequest t = records.get(0);
                soft.assertThat(t.getFormat()).isEqualTo(HaproxyLogFormat.tcp);
                soft.assertThat(t.getBackend() + "/" + t.getServer() + " " + t.getTerminationState() + " " + t.getBytesRead()
                        + " " + t.getTa()).isEqualTo("app_tcp/web1 -- 114 5");
                return;
            }
            soft.assertThat(records).as(frontend).hasSize(2);
            HaproxyRequest served = records.get(0);
            HaproxyRequest denied = records.get(1);
            soft.assertThat(served.getFormat()).as(frontend).isEqualTo(HaproxyLogFormat.http);
            soft.assertThat(List.of(served.getBackend(), served.getServer(), served.getStatusCode(), served.getHttpMethod(),
                    served.getHttpUri(), served.getHttpVersion())).as(frontend + " served")
                    .containsExactly("app", "web1", 200, "GET", URI, "HTTP/1.1");
            // fe_dates has no deny rule
            soft.assertThat(List.of(denied.getServer(), denied.getStatusCode(), denied.getHttpUri())).as(frontend + " denied")
                    .containsExactly(frontend.equals("fe_dates") ? "web1" : "<NOSRV>", frontend.equals("fe_dates") ? 200 : 403,
                            "/admin/users");
            if (!frontend.equals("fe_dates")) {
                soft.assertThat(List.of(served.getTerminationState(), served.getBytesRead(), denied.getTerminationState(),
                        denied.getBytesRead(), denied.getTr(), denied.getTa(), denied.getFeconn()))
                        .as(frontend + " counters").containsExactly("----", 117L, "PR--", 192L, 0, 0, 1);
                soft.assertThat(denied.getTw()).as(frontend).isNull();
            }
        });
        // the httplog frontend's lines are the built-in parser's own
        HaproxyLogParser builtin = new HaproxyLogParser(LogDates.live(CLOCK));
        String httplog = text(DIR + "captured.log").split("\n")[0];
        soft.assertThat(((HaproxyLine) ((ParseResult.Ok<Decoded>) builtin.parse(httplog)).value()).request())
                .isEqualTo(byFrontend.get("fe_httplog").get(0));
        // +X: %{+X}ci:%{+X}cp is 7F000001:A412 in the capture
        soft.assertThat(byFrontend.get("fe_custom").get(0).getClientPort()).isEqualTo(0xA412);
        soft.assertAll();
    }

    /** Each frontend's format as haproxy.cfg gives it: its log-format line, else its option, else httplog. */
    static Map<String, String> formatsOf(String cfg) {
        Map<String, String> formats = new LinkedHashMap<>();
        String frontend = null;
        for (String raw : cfg.split("\n")) {
            String line = raw.strip();
            if (!raw.startsWith(" ")) {
                frontend = line.startsWith("frontend ") ? line.substring("frontend ".length()).strip() : null;
                if (frontend != null) {
                    formats.put(frontend, "httplog");
                }
            } else if (frontend != null && line.startsWith("log-format ")) {
                formats.put(frontend, line.substring("log-format ".length()));
            } else if (frontend != null && line.startsWith("option ") && line.contains("log")) {
                formats.put(frontend, line.substring("option ".length()));
            }
        }
        return formats;
    }

    static String text(String resource) {
        try (InputStream in = LogFormatCaptureTest.class.getResourceAsStream(resource)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
