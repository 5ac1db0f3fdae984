package io.hcwatch.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.BackendEvent;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HaproxyLogFormat;
import io.hcwatch.avro.v1.HaproxyRequest;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.TargetState;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.avro.specific.SpecificRecord;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * Every line and every expected value of shared/fixtures/peer-logs/haproxy, including the
 * unattributed lines (whose expectations are stated in prose in expected.md, so encoded here).
 */
class HaproxyPeerFixturesConformanceTest {

    private static final Pattern HTTP_CLIENT = Pattern.compile("client=`([^`]*)`:`([^`]*)`");
    private static final Pattern MONTH_DAY_TIME = Pattern.compile("(\\w{3}) +(\\d+) (\\d\\d):(\\d\\d):(\\d\\d)");
    /** A clock in the fixtures' latest year, so yearless prefixes resolve deterministically. */
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2025-12-31T12:00:00Z"), ZoneOffset.UTC);

    private final HaproxyLogParser parser = new HaproxyLogParser(CLOCK);

    @Test
    void everyPeerLineParsesToTheValuesItsSourcesExpect() {
        Path dir = PeerFixtures.requireFolder().resolve("haproxy");
        List<String> lines = PeerFixtures.lines(dir.resolve("lines.txt"));
        List<PeerFixtures.Expectation> expectations = PeerFixtures.expectations(dir.resolve("expected.md"));
        assertThat(expectations).hasSize(lines.size());
        SoftAssertions soft = new SoftAssertions();
        for (PeerFixtures.Expectation e : expectations) {
            String line = lines.get(e.line() - 1);
            String label = "H" + e.line() + " (" + e.kind() + ")";
            ParseResult<SpecificRecord> result = AvroForm.of(parser.parse(line));
            checkPrefix(soft, label, line, e.prefix());
            switch (e.kind()) {
                case "http", "tcp" -> traffic(soft, label, result, e);
                case "error" -> errorLine(soft, label, result, e);
                case "connect" -> soft.assertThat(result).as(label).isEqualTo(ParseResult.skipped("legacy_connect"));
                case "health-check" -> healthCheck(soft, label, result, e.values());
                case "server-state" -> serverState(soft, label, result, e.values());
                case "no-server" -> noServer(soft, label, result, e.values());
                case "UNPARSED" -> {
                    // cut short by journald; what survives still says the server went DOWN
                    HealthCheckResult r = value(soft, label, result, HealthCheckResult.class);
                    if (r != null) {
                        soft.assertThat(r.getState()).as(label).isEqualTo(TargetState.unhealthy);
                        soft.assertThat(r.getTargetGroup() + "/" + r.getTarget()).as(label).isEqualTo("plex-http/plex");
                        soft.assertThat(r.getReason()).as(label).isEqualTo("Layer7 wron>");
                    }
                }
                default -> soft.fail(label + ": unknown kind");
            }
            if (result instanceof ParseResult.Ok<SpecificRecord> ok) {
                hostIs(soft, label, ok.value(), e.prefix().get("host"));
            }
        }
        soft.assertAll();
    }

    private static <T> T value(SoftAssertions soft, String label, ParseResult<SpecificRecord> result, Class<T> type) {
        soft.assertThat(result).as(label + " " + result).isInstanceOf(ParseResult.Ok.class);
        if (result instanceof ParseResult.Ok<SpecificRecord> ok) {
            soft.assertThat(ok.value()).as(label).isInstanceOf(type);
            if (type.isInstance(ok.value())) {
                return type.cast(ok.value());
            }
        }
        return null;
    }

    private static void hostIs(SoftAssertions soft, String label, SpecificRecord record, String host) {
        String actual = record instanceof HaproxyRequest r ? r.getHost()
                : record instanceof HealthCheckResult h ? h.getLb()
                : ((BackendEvent) record).getHost();
        soft.assertThat(actual).as(label + " host").isEqualTo(host);
    }

    /** The prefix timestamp and pid; PRI and console level are not kept by any record. */
    private static void checkPrefix(SoftAssertions soft, String label, String line, Map<String, String> expected) {
        SyslogPrefix prefix = SyslogPrefixParser.parse(line);
        String ts = expected.get("ts");
        if (ts != null) {
            soft.assertThat(prefix.hasTimestamp()).as(label + " prefix ts").isTrue();
            Matcher m = MONTH_DAY_TIME.matcher(ts);
            String actual;
            if (m.matches()) {
                actual = String.format("%s %2d %02d:%02d:%02d", CivilTime.MONTH_ABBREVIATIONS[prefix.month() - 1],
                        prefix.day(), prefix.hour(), prefix.minute(), prefix.second());
            } else {
                String offset = prefix.offsetSeconds() == null ? ""
                        : ZoneOffset.ofTotalSeconds(prefix.offsetSeconds()).getId();
                actual = String.format("%04d-%02d-%02d%s%02d:%02d:%02d%s", prefix.year(), prefix.month(),
                        prefix.day(), ts.charAt(10), prefix.hour(), prefix.minute(), prefix.second(), offset);
            }
            soft.assertThat(actual).as(label + " prefix ts").isEqualTo(ts);
        }
        String doy = expected.get("doy");
        if (doy != null && ts == null) {
            soft.assertThat(String.format("%03d/%02d%02d%02d", prefix.dayOfYear(), prefix.hour(), prefix.minute(),
                    prefix.second())).as(label + " console day/time").isEqualTo(doy);
        }
        if (expected.containsKey("prog")) {
            soft.assertThat(prefix.program()).as(label + " program").isEqualTo(expected.get("prog"));
        }
        if (expected.containsKey("pid")) {
            soft.assertThat(prefix.pid()).as(label + " pid").isEqualTo(Integer.valueOf(expected.get("pid")));
        }
    }

    private void traffic(SoftAssertions soft, String label, ParseResult<SpecificRecord> result,
                         PeerFixtures.Expectation e) {
        HaproxyRequest r = value(soft, label, result, HaproxyRequest.class);
        if (r == null) {
            return;
        }
        Map<String, String> v = e.values();
        boolean http = e.kind().equals("http");
        soft.assertThat(r.getFormat()).as(label).isEqualTo(http ? HaproxyLogFormat.http : HaproxyLogFormat.tcp);
        Matcher client = HTTP_CLIENT.matcher(String.join("\n", e.rawLines()));
        String expectedClient = client.find() ? client.group(1) + ":" + client.group(2) : v.get("client");
        soft.assertThat((r.getClientIp() == null ? "-" : r.getClientIp()) + ":" + r.getClientPort()).as(label + " client")
                .isEqualTo(expectedClient);
        soft.assertThat(r.getTs()).as(label + " accept").isEqualTo(acceptDate(v.get("accept"), e.prefix()));
        soft.assertThat(r.getFrontend() + (r.getSsl() ? "~" : "")).as(label + " frontend").isEqualTo(v.get("frontend"));
        soft.assertThat(r.getBackend()).as(label + " backend").isEqualTo(v.get("backend"));
        soft.assertThat(r.getServer()).as(label + " server").isEqualTo(v.get("server"));
        if (http) {
            soft.assertThat(slashes(r.getTr(), r.getTw(), r.getTc(), r.getTrServer(), r.getTa(), r.getLogasap()))
                    .as(label + " timers").isEqualTo(v.get("TR/Tw/Tc/Tr/Ta"));
            soft.assertThat(r.getStatusCode()).as(label + " status")
                    .isEqualTo(v.get("status").equals("-1") ? null : Integer.valueOf(v.get("status")));
            soft.assertThat(r.getTerminationState()).as(label + " tsc").isEqualTo(v.get("tsc"));
            String request = String.join(" ", nonNull(r.getHttpMethod(), r.getHttpUri(), r.getHttpVersion()));
            String expectedRequest = v.get("request");
            if (expectedRequest.endsWith("...")) {
                soft.assertThat(request).as(label + " request").startsWith(expectedRequest.substring(0,
                        expectedRequest.length() - 3));
            } else {
                soft.assertThat(request).as(label + " request").isEqualTo(expectedRequest);
            }
        } else {
            soft.assertThat(slashes(r.getTw(), r.getTc(), r.getTa(), r.getLogasap()))
                    .as(label + " timers").isEqualTo(v.get("Tw/Tc/Tt"));
            soft.assertThat(r.getTerminationState()).as(label + " ts").isEqualTo(v.get("ts"));
        }
        soft.assertThat((r.getBytesLogasap() ? "+" : "") + r.getBytesRead()).as(label + " bytes").isEqualTo(v.get("bytes_read"));
        soft.assertThat(r.getActconn() + "/" + r.getFeconn() + "/" + r.getBeconn() + "/" + r.getSrvConn() + "/"
                + (r.getRedispatched() ? "+" : "") + r.getRetries()).as(label + " conns").isEqualTo(v.get("ac/fc/bc/sc/rc"));
        soft.assertThat(r.getSrvQueue() + "/" + r.getBackendQueue()).as(label + " queues")
                .isEqualTo(v.get("srv_queue/backend_queue"));
    }

    private void errorLine(SoftAssertions soft, String label, ParseResult<SpecificRecord> result,
                           PeerFixtures.Expectation e) {
        HaproxyRequest r = value(soft, label, result, HaproxyRequest.class);
        if (r == null) {
            return;
        }
        Map<String, String> v = e.values();
        soft.assertThat(r.getFormat()).as(label).isEqualTo(HaproxyLogFormat.error);
        soft.assertThat(r.getClientIp() + ":" + r.getClientPort()).as(label + " client").isEqualTo(v.get("client"));
        soft.assertThat(r.getTs()).as(label + " accept").isEqualTo(acceptDate(v.get("accept"), e.prefix()));
        soft.assertThat(r.getFrontend()).as(label + " frontend").isEqualTo(v.get("frontend"));
        soft.assertThat(r.getBind()).as(label + " bind").isEqualTo(v.get("bind"));
        soft.assertThat(r.getError()).as(label + " message").isEqualTo(v.get("message"));
    }

    private static void healthCheck(SoftAssertions soft, String label, ParseResult<SpecificRecord> result,
                                    Map<String, String> v) {
        HealthCheckResult r = value(soft, label, result, HealthCheckResult.class);
        if (r == null) {
            return;
        }
        soft.assertThat(r.getSource()).as(label).isEqualTo("haproxy");
        soft.assertThat(r.getTargetGroup()).as(label + " backend").isEqualTo(v.get("backend"));
        soft.assertThat(r.getTarget()).as(label + " server").isEqualTo(v.get("server"));
        soft.assertThat(r.getOutcome() == CheckOutcome.pass).as(label + " result")
                .isEqualTo(v.get("result").equals("succeeded"));
        soft.assertThat(r.getReason()).as(label + " reason").isEqualTo(v.get("reason"));
        soft.assertThat(r.getStatusCode()).as(label + " code").isEqualTo(v.get("code").equals("-") ? null
                : Integer.valueOf(v.get("code")));
        soft.assertThat(r.getLatencyMs()).as(label + " duration").isEqualTo(millis(v.get("check_duration_ms")));
        String[] status = v.get("status").split("[/ ]");
        soft.assertThat(r.getState()).as(label + " state").isEqualTo(state(status[2]));
        Integer threshold = r.getState() == TargetState.unhealthy ? r.getCheck().getHealthyThreshold()
                : r.getCheck().getUnhealthyThreshold();
        soft.assertThat(threshold).as(label + " rise/fall").isEqualTo(Integer.valueOf(status[1]));
    }

    private static void serverState(SoftAssertions soft, String label, ParseResult<SpecificRecord> result,
                                     Map<String, String> v) {
        HealthCheckResult r = value(soft, label, result, HealthCheckResult.class);
        if (r == null) {
            return;
        }
        soft.assertThat(r.getTargetGroup()).as(label + " backend").isEqualTo(v.get("backend"));
        soft.assertThat(r.getTarget()).as(label + " server").isEqualTo(v.get("server"));
        soft.assertThat(r.getState()).as(label + " state").isEqualTo(state(v.get("state")));
        soft.assertThat(r.getReason()).as(label + " reason").isEqualTo(v.get("reason").equals("-") ? null : v.get("reason"));
        soft.assertThat(r.getLatencyMs()).as(label + " duration").isEqualTo(millis(v.get("check_duration_ms")));
        soft.assertThat(r.getActiveServersLeft()).as(label + " active").isEqualTo(Integer.valueOf(v.get("active")));
    }

    private static void noServer(SoftAssertions soft, String label, ParseResult<SpecificRecord> result,
                                 Map<String, String> v) {
        BackendEvent r = value(soft, label, result, BackendEvent.class);
        if (r != null) {
            soft.assertThat(r.getBackend()).as(label + " backend").isEqualTo(v.get("backend"));
        }
    }

    private static TargetState state(String haproxyState) {
        return switch (haproxyState) {
            case "UP" -> TargetState.healthy;
            case "DOWN" -> TargetState.unhealthy;
            case "DRAIN" -> TargetState.draining;
            default -> throw new IllegalArgumentException(haproxyState);
        };
    }

    private static Integer millis(String value) {
        return value.equals("(absent)") ? null : Integer.valueOf(value);
    }

    /** The accept date is local time; lines whose prefix carries an offset are read in that offset. */
    private static Instant acceptDate(String text, Map<String, String> prefix) {
        String ts = prefix.get("ts");
        ZoneId zone = ZoneOffset.UTC;
        if (ts != null && ts.matches(".*[+-]\\d\\d:\\d\\d$")) {
            zone = ZoneOffset.of(ts.substring(ts.length() - 6));
        }
        Instant parsed = HaproxyAcceptDate.parse(text, 0, text.length(), zone);
        assertThat(parsed).as("expected accept date " + text).isNotNull();
        return parsed;
    }

    private static String slashes(Object... timersThenLogasap) {
        StringBuilder out = new StringBuilder();
        int last = timersThenLogasap.length - 2;
        for (int i = 0; i <= last; i++) {
            if (i > 0) {
                out.append('/');
            }
            if (i == last && Boolean.TRUE.equals(timersThenLogasap[last + 1])) {
                out.append('+');
            }
            out.append(timersThenLogasap[i] == null ? "-1" : timersThenLogasap[i]);
        }
        return out.toString();
    }

    private static List<String> nonNull(String... parts) {
        return java.util.Arrays.stream(parts).filter(java.util.Objects::nonNull).toList();
    }

    @Test
    void negativeLinesAreRejected() {
        Path dir = PeerFixtures.requireFolder().resolve("haproxy");
        List<String> lines = PeerFixtures.lines(dir.resolve("negative-lines.txt"));
        assertThat(lines).hasSize(2);
        // N1: empty accept date "[]"; N2: hand-retyped, server not in backend/server form
        assertThat(parser.parse(lines.get(0))).isInstanceOfSatisfying(ParseResult.Rejected.class,
                r -> assertThat(r.reason()).isEqualTo(RejectReason.BAD_TIMESTAMP));
        assertThat(parser.parse(lines.get(1))).isInstanceOf(ParseResult.Rejected.class);
    }

    @Test
    void unattributedLinesParseAsTheirSourceTestsExpect() {
        Path dir = PeerFixtures.requireFolder().resolve("haproxy");
        List<String> u = PeerFixtures.lines(dir.resolve("unattributed-lines.txt"));
        assertThat(u).hasSize(16);
        // U6 and U7 carry no offset of their own; their source reads them at +03:00
        HaproxyLogParser moscow = new HaproxyLogParser(Clock.fixed(CLOCK.instant(), ZoneOffset.ofHours(3)));
        SoftAssertions soft = new SoftAssertions();
        soft.assertThat(AvroForm.of(moscow.parse(u.get(0)))).as("U1").isEqualTo(ParseResult.skipped("legacy_connect"));
        for (int i : new int[] {1, 2}) {
            HealthCheckResult down = value(soft, "U" + (i + 1), AvroForm.of(moscow.parse(u.get(i))), HealthCheckResult.class);
            if (down != null) {
                soft.assertThat(down.getTargetGroup()).isEqualTo("marketbuker.yandex.ru:29310");
                soft.assertThat(down.getTarget()).isEqualTo("sas3-1464-7bd-sas-market-prod--f27-27494.gencfg-c.yandex.net:27494");
                soft.assertThat(down.getState()).isEqualTo(TargetState.unhealthy);
                soft.assertThat(down.getOutcome()).isEqualTo(CheckOutcome.timeout);
                soft.assertThat(down.getLatencyMs()).isEqualTo(1000);
                soft.assertThat(down.getActiveServersLeft()).isEqualTo(23);
                soft.assertThat(down.getLb()).isEqualTo("mslb01h");
                soft.assertThat(down.getTs()).isEqualTo(Instant.parse("2020-03-16T14:09:52+03:00"));
            }
        }
        HaproxyRequest badRequest = value(soft, "U4", AvroForm.of(moscow.parse(u.get(3))), HaproxyRequest.class);
        if (badRequest != null) {
            soft.assertThat(badRequest.getServer()).isEqualTo("<NOSRV>");
            soft.assertThat(badRequest.getTerminationState()).isEqualTo("PR--");
            soft.assertThat(badRequest.getHttpMethod()).isEqualTo("<BADREQ>");
            soft.assertThat(badRequest.getClientIp()).isEqualTo("2a02:6b8:0:1a00::ba4b");
        }
        String[][] requests = {
            {"4", "2020-03-16T14:09:49.775+03:00", "0", "false", "HTTP/1.1", "sQ--"},
            {"5", "2020-03-16T14:09:49.657+03:00", "0", "false", "HTTP/1.1", "sQ--"},
            {"6", "2020-03-16T14:09:49.785+03:00", "0", "false", "HTTP/1.1", "----"},
            {"7", "2020-03-16T11:15:53.100+03:00", "1", "true", "HTTP/1.1", "----"},
            {"8", "2021-03-10T06:26:36.246+03:00", "0", "false", "HTTP/2.0", "CD--"},
        };
        for (String[] x : requests) {
            int i = Integer.parseInt(x[0]);
            HaproxyRequest r = value(soft, "U" + (i + 1), AvroForm.of(moscow.parse(u.get(i))), HaproxyRequest.class);
            if (r != null) {
                soft.assertThat(r.getTs()).as("U" + (i + 1) + " accept").isEqualTo(java.time.OffsetDateTime.parse(x[1]).toInstant());
                soft.assertThat(r.getRetries()).as("U" + (i + 1) + " retries").isEqualTo(Integer.valueOf(x[2]));
                soft.assertThat(r.getRedispatched()).as("U" + (i + 1) + " redispatched").isEqualTo(Boolean.valueOf(x[3]));
                soft.assertThat(i == 7 ? r.getHttpUri() : r.getHttpVersion()).as("U" + (i + 1) + " version")
                        .isEqualTo(i == 7 ? r.getHttpUri() : x[4]);
                soft.assertThat(r.getTerminationState()).as("U" + (i + 1) + " termination").isEqualTo(x[5]);
            }
        }
        // U8's request line is cut: method and URI survive, the version is lost
        HaproxyRequest truncated = value(soft, "U8", AvroForm.of(moscow.parse(u.get(7))), HaproxyRequest.class);
        if (truncated != null) {
            soft.assertThat(truncated.getHttpMethod()).isEqualTo("GET");
            soft.assertThat(truncated.getHttpVersion()).isNull();
            soft.assertThat(truncated.getBackend()).isEqualTo("be1:dj-recommender-fast.vs.market.yandex.net:443");
        }
        HaproxyRequest ipv6 = value(soft, "U7", AvroForm.of(moscow.parse(u.get(6))), HaproxyRequest.class);
        if (ipv6 != null) {
            soft.assertThat(ipv6.getClientIp()).isEqualTo("fdee:fdee:0:3400:0:3c9:0:183");
            soft.assertThat(ipv6.getClientPort()).isEqualTo(53610);
        }
        // U10-U16: 1/3 UP -> 0/2 DOWN -> Server DOWN (x2) -> 1/2 DOWN -> 3/3 UP -> Server UP
        TargetState[] states = {TargetState.healthy, TargetState.unhealthy, TargetState.unhealthy,
            TargetState.unhealthy, TargetState.unhealthy, TargetState.healthy, TargetState.healthy};
        CheckOutcome[] outcomes = {CheckOutcome.connect_error, CheckOutcome.connect_error, CheckOutcome.other,
            CheckOutcome.other, CheckOutcome.pass, CheckOutcome.pass, CheckOutcome.pass};
        for (int k = 0; k < 7; k++) {
            HealthCheckResult r = value(soft, "U" + (10 + k), AvroForm.of(moscow.parse(u.get(9 + k))), HealthCheckResult.class);
            if (r != null) {
                soft.assertThat(r.getState()).as("U" + (10 + k) + " state").isEqualTo(states[k]);
                soft.assertThat(r.getOutcome()).as("U" + (10 + k) + " outcome").isEqualTo(outcomes[k]);
                soft.assertThat(r.getTarget()).as("U" + (10 + k)).isEqualTo("worker03.ocp.example.com");
                soft.assertThat(r.getLb()).as("U" + (10 + k)).isEqualTo("localhost");
            }
        }
        soft.assertAll();
    }
}
