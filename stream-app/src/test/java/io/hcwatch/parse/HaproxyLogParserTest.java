package io.hcwatch.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.BackendEvent;
import io.hcwatch.avro.v1.BackendEventKind;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HaproxyLogFormat;
import io.hcwatch.avro.v1.HaproxyRequest;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.TargetState;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Stream;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class HaproxyLogParserTest {

    private static final Clock MARCH_2026 = Clock.fixed(Instant.parse("2026-03-03T15:00:00Z"), ZoneOffset.UTC);
    private final HaproxyLogParser parser = new HaproxyLogParser(MARCH_2026);
    private final List<String> samples = Samples.lines("haproxy.log");

    private <T> T sample(int i, Class<T> type) {
        ParseResult<SpecificRecord> result = AvroForm.of(parser.parse(samples.get(i)));
        assertThat(result).isInstanceOf(ParseResult.Ok.class);
        return type.cast(((ParseResult.Ok<SpecificRecord>) result).value());
    }

    @Test
    void httpLineWithSyslogPrefixCapturedHeadersAndLogasap() {
        HaproxyRequest r = sample(0, HaproxyRequest.class);
        assertThat(r.getFormat()).isEqualTo(HaproxyLogFormat.http);
        assertThat(r.getTs()).isEqualTo(Instant.parse("2026-03-03T14:32:45.120Z"));
        assertThat(r.getHost()).isEqualTo("lb1");
        assertThat(r.getProcess()).isEqualTo("haproxy");
        assertThat(r.getPid()).isEqualTo(4242);
        assertThat(r.getClientIp()).isEqualTo("203.0.113.7");
        assertThat(r.getFrontend()).isEqualTo("hc-ping");
        assertThat(r.getSsl()).isTrue();
        assertThat(r.getBackend()).isEqualTo("app");
        assertThat(r.getServer()).isEqualTo("web1");
        assertThat(List.of(r.getTr(), r.getTw(), r.getTc(), r.getTrServer(), r.getTa())).containsExactly(0, 0, 1, 211, 212);
        assertThat(r.getLogasap()).isTrue();
        assertThat(r.getBytesRead()).isEqualTo(3091L);
        assertThat(r.getBytesLogasap()).isTrue();
        assertThat(r.getCapturedRequestCookie()).isNull();
        assertThat(r.getTerminationState()).isEqualTo("----");
        assertThat(List.of(r.getActconn(), r.getFeconn(), r.getBeconn(), r.getSrvConn(), r.getRetries()))
                .containsExactly(812, 640, 12, 4, 0);
        assertThat(r.getCapturedRequestHeaders()).isEqualTo("shop.example.net|Mozilla/5.0 (X11)");
        assertThat(r.getCapturedResponseHeaders()).isEmpty();
        assertThat(r.getHttpMethod()).isEqualTo("GET");
        assertThat(r.getHttpUri()).isEqualTo("/api/cart?id=42");
        assertThat(r.getHttpVersion()).isEqualTo("HTTP/1.1");
    }

    @Test
    void tarpitLineKeepsTimersOfPhasesNeverReachedAsNull() {
        HaproxyRequest r = sample(1, HaproxyRequest.class);
        assertThat(r.getTerminationState()).isEqualTo("PT--");
        assertThat(r.getServer()).isEqualTo("<NOSRV>");
        assertThat(r.getTw()).isEqualTo(1000);
        assertThat(r.getTc()).isNull();
        assertThat(r.getTrServer()).isNull();
        assertThat(r.getFeconn()).isEqualTo(1985);
    }

    @Test
    void rfc5424LineWithQueueTimeoutAndRedispatch() {
        HaproxyRequest r = sample(2, HaproxyRequest.class);
        assertThat(r.getHost()).isEqualTo("lb2");
        assertThat(r.getPid()).isEqualTo(4243);
        assertThat(r.getClientIp()).isEqualTo("2001:db8::77");
        assertThat(r.getClientPort()).isEqualTo(45000);
        assertThat(r.getTerminationState()).isEqualTo("sQ--");
        assertThat(r.getRetries()).isEqualTo(1);
        assertThat(r.getRedispatched()).isTrue();
        assertThat(r.getSrvQueue()).isEqualTo(7);
        assertThat(r.getBackendQueue()).isEqualTo(12);
        assertThat(r.getHttpVersion()).isEqualTo("HTTP/2.0");
    }

    @Test
    void tcpLineWithoutAnyPrefix() {
        HaproxyRequest r = sample(3, HaproxyRequest.class);
        assertThat(r.getFormat()).isEqualTo(HaproxyLogFormat.tcp);
        assertThat(r.getHost()).isNull();
        assertThat(r.getTw()).isEqualTo(1);
        assertThat(r.getTc()).isEqualTo(0);
        assertThat(r.getTa()).isEqualTo(5012);
        assertThat(r.getTr()).isNull();
        assertThat(r.getStatusCode()).isNull();
        assertThat(r.getTerminationState()).isEqualTo("--");
    }

    @Test
    void connectionErrorLineNamesFrontendAndBind() {
        HaproxyRequest r = sample(4, HaproxyRequest.class);
        assertThat(r.getFormat()).isEqualTo(HaproxyLogFormat.error);
        assertThat(r.getFrontend()).isEqualTo("www");
        assertThat(r.getBind()).isEqualTo("tls-443");
        assertThat(r.getError()).isEqualTo("SSL handshake failure");
        assertThat(r.getHost()).isNull();
    }

    @Test
    void failedHealthCheckWhileStillUp() {
        HealthCheckResult r = sample(5, HealthCheckResult.class);
        assertThat(r.getTs()).isEqualTo(Instant.parse("2026-03-03T14:32:50Z"));
        assertThat(r.getSource()).isEqualTo("haproxy");
        assertThat(r.getLb()).isEqualTo("lb1");
        assertThat(r.getTargetGroup()).isEqualTo("app");
        assertThat(r.getTarget()).isEqualTo("web3");
        assertThat(r.getOutcome()).isEqualTo(CheckOutcome.timeout);
        assertThat(r.getLatencyMs()).isEqualTo(2001);
        assertThat(r.getState()).isEqualTo(TargetState.healthy);
        assertThat(r.getReason()).isEqualTo("Layer7 timeout");
        assertThat(r.getCheck().getUnhealthyThreshold()).isEqualTo(3);
    }

    @Test
    void wrongStatusTakesTheServerDownAndFillsRise() {
        HealthCheckResult r = sample(6, HealthCheckResult.class);
        assertThat(r.getOutcome()).isEqualTo(CheckOutcome.http_status);
        assertThat(r.getStatusCode()).isEqualTo(503);
        assertThat(r.getState()).isEqualTo(TargetState.unhealthy);
        assertThat(r.getCheck().getHealthyThreshold()).isEqualTo(2);
        assertThat(r.getLatencyMs()).isEqualTo(4);
    }

    @Test
    void consoleFormatBackupServerCheck() {
        HealthCheckResult r = sample(7, HealthCheckResult.class);
        assertThat(r.getTs()).isEqualTo(Instant.parse("2026-03-03T14:32:52Z"));
        assertThat(r.getTarget()).isEqualTo("spare1");
        assertThat(r.getOutcome()).isEqualTo(CheckOutcome.pass);
        assertThat(r.getLb()).isNull();
    }

    @Test
    void serverStateLinesFillActiveServersLeft() {
        HealthCheckResult down = sample(8, HealthCheckResult.class);
        assertThat(down.getState()).isEqualTo(TargetState.unhealthy);
        assertThat(down.getOutcome()).isEqualTo(CheckOutcome.http_status);
        assertThat(down.getActiveServersLeft()).isEqualTo(2);
        assertThat(down.getStatusCode()).isEqualTo(503);
        HealthCheckResult up = sample(9, HealthCheckResult.class);
        assertThat(up.getState()).isEqualTo(TargetState.healthy);
        assertThat(up.getOutcome()).isEqualTo(CheckOutcome.pass);
        assertThat(up.getActiveServersLeft()).isEqualTo(3);
        HealthCheckResult maintenance = sample(10, HealthCheckResult.class);
        assertThat(maintenance.getState()).isEqualTo(TargetState.unused);
        assertThat(maintenance.getActiveServersLeft()).isEqualTo(2);
    }

    @Test
    void noServerAvailableBecomesABackendEventInBothForms() {
        BackendEvent syslog = sample(11, BackendEvent.class);
        assertThat(syslog.getBackend()).isEqualTo("app");
        assertThat(syslog.getKind()).isEqualTo(BackendEventKind.no_server_available);
        assertThat(syslog.getHost()).isEqualTo("lb1");
        BackendEvent console = sample(12, BackendEvent.class);
        assertThat(console.getBackend()).isEqualTo("pg");
        // no timestamp on the line: timed by the clock
        assertThat(console.getTs()).isEqualTo(MARCH_2026.instant());
    }

    @Test
    void aDecemberLineReadInJanuaryBelongsToLastYear() {
        HaproxyLogParser january = new HaproxyLogParser(Clock.fixed(Instant.parse("2027-01-01T00:10:00Z"), ZoneOffset.UTC));
        ParseResult<SpecificRecord> r = AvroForm.of(january.parse(
                "Dec 31 23:59:58 lb1 haproxy[1]: backend app has no server available!"));
        assertThat(((BackendEvent) ((ParseResult.Ok<SpecificRecord>) r).value()).getTs())
                .isEqualTo(Instant.parse("2026-12-31T23:59:58Z"));
    }

    @Test
    void aGivenYearAndZoneCompleteDatesThatLackThem() {
        // a host in New York (UTC-5 in December), files of 2024 replayed in 2031
        Clock later = Clock.fixed(Instant.parse("2031-06-01T00:00:00Z"), java.time.ZoneId.of("America/New_York"));
        HaproxyLogParser replay = new HaproxyLogParser(new LogDates(later, 2024));
        // day 366 exists only in a leap year: 2024-12-31
        HealthCheckResult h = (HealthCheckResult) ((ParseResult.Ok<SpecificRecord>) AvroForm.of(replay.parse(
                "[WARNING] 366/235950 (4242) : Server app/web3 is DOWN, reason: Layer4 timeout, check duration: 2001ms."
                        + " 0 active and 0 backup servers left. 0 sessions active, 0 requeued, 0 remaining in queue.")))
                .value();
        assertThat(h.getTs()).isEqualTo(Instant.parse("2025-01-01T04:59:50Z"));
        // the accept date has a year of its own; only the zone applies
        HaproxyRequest r = (HaproxyRequest) ((ParseResult.Ok<SpecificRecord>) AvroForm.of(replay.parse(
                "10.1.2.3:51515 [03/Mar/2026:14:32:48.001] pg-in pg/db1 1/0/5012 4481 -- 10/10/3/3/0 0/0"))).value();
        assertThat(r.getTs()).isEqualTo(Instant.parse("2026-03-03T19:32:48.001Z"));
        // an offset in the prefix wins over the given zone
        BackendEvent e = (BackendEvent) ((ParseResult.Ok<SpecificRecord>) AvroForm.of(replay.parse(
                "<134>1 2024-03-03T14:32:47+01:00 lb2 haproxy 4243 - - backend app has no server available!"))).value();
        assertThat(e.getTs()).isEqualTo(Instant.parse("2024-03-03T13:32:47Z"));
    }

    @Test
    void aDateThatTheGivenYearDoesNotHaveIsRejected() {
        HaproxyLogParser replay = new HaproxyLogParser(new LogDates(MARCH_2026, 2023));
        ParseResult<SpecificRecord> r = AvroForm.of(replay.parse("Feb 29 10:00:00 lb1 haproxy[1]: backend app has no server available!"));
        assertThat(r).isInstanceOfSatisfying(ParseResult.Rejected.class, rej -> {
            assertThat(rej.reason()).isEqualTo(RejectReason.BAD_TIMESTAMP);
            assertThat(rej.error()).contains("2023");
        });
    }

    @Test
    void consoleDayOfYearTakesItsYearFromTheClock() {
        ParseResult<SpecificRecord> r = AvroForm.of(parser.parse(
                "[WARNING] 062/143250 (4242) : Server app/web3 is DOWN, reason: Layer4 timeout, check duration: 2001ms."
                        + " 0 active and 0 backup servers left. 0 sessions active, 0 requeued, 0 remaining in queue."));
        HealthCheckResult h = (HealthCheckResult) ((ParseResult.Ok<SpecificRecord>) r).value();
        assertThat(h.getTs()).isEqualTo(Instant.parse("2026-03-03T14:32:50Z"));
        assertThat(h.getOutcome()).isEqualTo(CheckOutcome.timeout);
        assertThat(h.getActiveServersLeft()).isZero();
    }

    static Stream<Arguments> skipped() {
        return Samples.tabbed("haproxy-skipped.log").stream().map(p -> Arguments.of(p[0], p[1]));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("skipped")
    void lifecycleLinesAreSkippedWithABoundedKind(String kind, String line) {
        assertThat(parser.parse(line)).isEqualTo(ParseResult.skipped(kind));
    }

    static Stream<Arguments> rejected() {
        return Samples.tabbed("haproxy-rejected.log").stream().map(p -> Arguments.of(p[0], p[1]));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("rejected")
    void brokenLinesAreRejectedWithAReason(String reason, String line) {
        assertThat(parser.parse(line)).isInstanceOfSatisfying(ParseResult.Rejected.class, r -> {
            assertThat(r.reason()).isEqualTo(reason);
            assertThat(r.error()).contains("expected");
        });
    }
}
