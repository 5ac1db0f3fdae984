package io.hcwatch.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.AlbRequest;
import io.hcwatch.avro.v1.BackendEvent;
import io.hcwatch.avro.v1.BackendEventKind;
import io.hcwatch.avro.v1.CheckConfig;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.ConfigKind;
import io.hcwatch.avro.v1.HaproxyLogFormat;
import io.hcwatch.avro.v1.HaproxyRequest;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.avro.v1.Thresholds;
import io.hcwatch.input.AlbTrafficLine;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Builders;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.apache.avro.specific.SpecificRecord;

/**
 * A record written by a formatter reads back equal. Generators only produce what the line formats
 * can carry: times at the format's precision, tokens without the separators of their field, and
 * outcome/reason/status combinations the formats express.
 */
class RoundTripProperties {

    private static final Clock UTC_CLOCK = Clock.fixed(Instant.parse("2036-01-01T00:00:00Z"), ZoneOffset.UTC);
    private final AlbAccessLogParser alb = new AlbAccessLogParser();
    private final AlbHealthCheckLogParser albHealth = new AlbHealthCheckLogParser();
    private final HaproxyLogParser haproxy = new HaproxyLogParser(UTC_CLOCK);
    private final HaproxyLineFormat haproxyFormat = new HaproxyLineFormat();

    // ---- shared pieces -------------------------------------------------------------------------

    private static Arbitrary<Instant> instants(ChronoUnit precision) {
        return Arbitraries.longs().between(Instant.parse("2018-01-01T00:00:00Z").getEpochSecond() * 1_000_000L,
                Instant.parse("2035-12-31T00:00:00Z").getEpochSecond() * 1_000_000L)
                .map(micros -> Instant.EPOCH.plus(micros, ChronoUnit.MICROS).truncatedTo(precision));
    }

    /** A token with no space, quote, bracket or brace; never the absent marker "-". */
    private static Arbitrary<String> token(String extraChars) {
        return Arbitraries.strings().withCharRange('a', 'z').withCharRange('A', 'Z').withCharRange('0', '9')
                .withChars("._" + extraChars).ofMinLength(1).ofMaxLength(16).filter(s -> !s.equals("-"));
    }

    /** Free text for quoted fields: spaces allowed, quotes not. */
    private static Arbitrary<String> text() {
        return Arbitraries.strings().withCharRange(' ', '~').withChars("éü✓").ofMinLength(1).ofMaxLength(30)
                .filter(s -> s.indexOf('"') < 0 && !s.equals("-") && !s.isBlank());
    }

    private static Arbitrary<String> ipv4() {
        return Arbitraries.integers().between(0, 255).list().ofSize(4)
                .map(l -> l.get(0) + "." + l.get(1) + "." + l.get(2) + "." + l.get(3));
    }

    private static Arbitrary<String> ipv6() {
        return Arbitraries.integers().between(0, 0xffff).list().ofSize(8)
                .map(l -> String.join(":", l.stream().map(Integer::toHexString).toList()));
    }

    private static Arbitrary<String> ip() {
        return Arbitraries.oneOf(ipv4(), ipv6(), Arbitraries.of("2001:db8::1", "::1", "fd00::"));
    }

    private static Arbitrary<Integer> ports() {
        return Arbitraries.integers().between(0, 65_535);
    }

    private static <T> Arbitrary<T> maybe(Arbitrary<T> a) {
        return a.injectNull(0.2);
    }

    // ---- ALB access log ------------------------------------------------------------------------

    @Provide
    Arbitrary<AlbRequest> albRequests() {
        Arbitrary<Double> seconds = maybe(Arbitraries.longs().between(0, 100_000_000).map(ms -> ms / 1000.0));
        Arbitrary<String[]> request = maybe(Combinators.combine(
                Arbitraries.of("GET", "POST", "HEAD", "PUT", "DELETE", "PATCH", "-"),
                token("/?&=%:-"),
                Arbitraries.of("HTTP/1.1", "HTTP/2.0", "HTTP/1.0", "-")).as((m, u, p) -> new String[] {m, u, p}));
        Arbitrary<String> arn = maybe(Combinators.combine(token("-"), token("")).as(
                (name, id) -> "arn:aws:elasticloadbalancing:us-east-1:111122223333:targetgroup/" + name + "/" + id));
        return Builders.withBuilder(AlbRequest::newBuilder)
                .use(Arbitraries.of("http", "https", "h2", "grpcs", "ws", "wss")).in((b, v) -> b.setType(v))
                .use(instants(ChronoUnit.MICROS)).in((b, v) -> b.setTime(v))
                .use(token("/-")).in((b, v) -> b.setElb(v))
                .use(maybe(Combinators.combine(ip(), ports()).as(HostPort::new))).in((b, v) -> b
                        .setClientIp(v == null ? null : v.host()).setClientPort(v == null ? null : v.port()))
                .use(maybe(Combinators.combine(ip(), ports()).as(HostPort::new))).in((b, v) -> b
                        .setTargetIp(v == null ? null : v.host()).setTargetPort(v == null ? null : v.port()))
                .use(seconds).in((b, v) -> b.setRequestProcessingTime(v))
                .use(seconds).in((b, v) -> b.setTargetProcessingTime(v))
                .use(seconds).in((b, v) -> b.setResponseProcessingTime(v))
                .use(maybe(Arbitraries.integers().between(100, 599))).in((b, v) -> b.setElbStatusCode(v))
                .use(maybe(Arbitraries.integers().between(100, 599))).in((b, v) -> b.setTargetStatusCode(v))
                .use(maybe(Arbitraries.longs().between(0, Long.MAX_VALUE / 1000))).in((b, v) -> b.setReceivedBytes(v))
                .use(maybe(Arbitraries.longs().between(0, Long.MAX_VALUE / 1000))).in((b, v) -> b.setSentBytes(v))
                .use(request).in((b, v) -> b.setRequest(v == null ? null : String.join(" ", v))
                        .setRequestMethod(v == null || v[0].equals("-") ? null : v[0])
                        .setRequestUrl(v == null ? null : v[1])
                        .setRequestProtocol(v == null || v[2].equals("-") ? null : v[2]))
                .use(maybe(text())).in((b, v) -> b.setUserAgent(v))
                .use(maybe(token("-"))).in((b, v) -> b.setSslCipher(v))
                .use(maybe(token(""))).in((b, v) -> b.setSslProtocol(v))
                .use(arn).in((b, v) -> b.setTargetGroupArn(v).setTargetGroup(TargetGroupNames.fromArn(v)))
                .use(maybe(text())).in((b, v) -> b.setTraceId(v))
                .use(maybe(text())).in((b, v) -> b.setDomainName(v))
                .use(maybe(text())).in((b, v) -> b.setChosenCertArn(v))
                .use(maybe(Arbitraries.integers().between(0, 50_000))).in((b, v) -> b.setMatchedRulePriority(v))
                .use(maybe(instants(ChronoUnit.MICROS))).in((b, v) -> b.setRequestCreationTime(v))
                .use(maybe(text())).in((b, v) -> b.setActionsExecuted(v))
                .use(maybe(text())).in((b, v) -> b.setRedirectUrl(v))
                .use(maybe(text())).in((b, v) -> b.setErrorReason(v))
                .use(maybe(text())).in((b, v) -> b.setTargetPortList(v))
                .use(maybe(text())).in((b, v) -> b.setTargetStatusCodeList(v))
                .use(maybe(text())).in((b, v) -> b.setClassification(v))
                .use(maybe(text())).in((b, v) -> b.setClassificationReason(v))
                .use(maybe(token("_"))).in((b, v) -> b.setConnTraceId(v))
                .use(maybe(text())).in((b, v) -> b.setTransformedHost(v))
                .use(maybe(text())).in((b, v) -> b.setTransformedUri(v))
                .use(maybe(text())).in((b, v) -> b.setRequestTransformStatus(v))
                .use(Arbitraries.integers().between(AlbAccessLogParser.MIN_FIELDS, AlbAccessLogParser.KNOWN_FIELDS))
                .in((b, v) -> b.setFieldCount(v))
                .build(b -> withoutFieldsBeyondItsCount(b.build()));
    }

    /** An older layout cannot carry the fields added after it. */
    private static AlbRequest withoutFieldsBeyondItsCount(AlbRequest r) {
        int n = r.getFieldCount();
        int[] schemaIndexOfLogField = {26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38};
        for (int logField = 20; logField < AlbAccessLogParser.KNOWN_FIELDS; logField++) {
            if (logField >= n) {
                r.put(schemaIndexOfLogField[logField - 20], null);
            }
        }
        return r;
    }

    @Property(tries = 1000)
    void albRequestsFormatAndParseBackEqual(@ForAll("albRequests") AlbRequest r) {
        String line = AlbLogFormat.format(r);
        assertThat(alb.parse(line)).as(line).isEqualTo(ParseResult.ok(r));
    }

    /**
     * The live path reads ALB lines through the traffic view: it must reject exactly what the full
     * parser rejects, with the same reason and message, and read the same values. Lines are
     * damaged at a random place about half of the time so the rejections are exercised too.
     */
    @Property(tries = 2000)
    void albTrafficViewAgreesWithTheFullParser(@ForAll("albRequests") AlbRequest r,
            @ForAll @IntRange(min = 0, max = 1000) int at, @ForAll("damage") String damage) {
        String line = AlbLogFormat.format(r);
        if (!damage.isEmpty()) {
            int from = at % (line.length() + 1);
            line = line.substring(0, from) + damage.substring(1) + line.substring(Math.min(line.length(), from + (damage.charAt(0) - '0')));
        }
        ParseResult<AlbRequest> full = alb.parse(line);
        ParseResult<AlbTrafficLine> traffic = alb.traffic().parse(line);
        if (full instanceof ParseResult.Ok<AlbRequest> ok) {
            AlbRequest a = ok.value();
            assertThat(traffic).as(line).isEqualTo(ParseResult.ok(new AlbTrafficLine(a.getTime().toEpochMilli(), a.getElb(),
                    a.getTargetGroup(), a.getClientIp(), a.getTargetIp(), a.getTargetPort() == null ? -1 : a.getTargetPort(),
                    a.getTargetProcessingTime() == null ? Double.NaN : a.getTargetProcessingTime(),
                    a.getElbStatusCode() == null ? -1 : a.getElbStatusCode(), a.getRequestMethod(), a.getRequestUrl())));
        } else {
            assertThat(traffic).as(line).isEqualTo(full);
        }
    }

    /** Empty for an intact line; else a digit (how many characters to remove) and what to put in their place. */
    @Provide
    Arbitrary<String> damage() {
        Arbitrary<String> replacement = Arbitraries.strings().withChars(" -\"x9:.[]/Z1").ofMaxLength(3);
        return Arbitraries.oneOf(Arbitraries.just(""),
                Combinators.combine(Arbitraries.integers().between(0, 9), replacement).as((n, s) -> n + s));
    }

    // ---- HAProxy traffic -----------------------------------------------------------------------

    @Provide
    Arbitrary<HaproxyRequest> haproxyRequests() {
        Arbitrary<Integer> timer = maybe(Arbitraries.integers().between(0, 10_000_000));
        Arbitrary<Integer> count = Arbitraries.integers().between(0, 100_000);
        Arbitrary<String[]> prefix = Arbitraries.oneOf(
                Arbitraries.just(new String[] {null, null, null}),
                Combinators.combine(maybe(token("-")), token("-"), maybe(Arbitraries.integers().between(1, 4_000_000)))
                        .as((host, process, pid) -> new String[] {host, process, pid == null ? null : pid.toString()}));
        Arbitrary<String[]> request = Arbitraries.oneOf(
                Arbitraries.just(new String[3]),
                Combinators.combine(Arbitraries.of("GET", "POST", "<BADREQ>", "CONNECT"), maybe(token("/?&=%:-")),
                        maybe(Arbitraries.of("HTTP/1.1", "HTTP/2.0"))).as((m, u, v) -> new String[] {m, u, u == null ? null : v}));
        Arbitrary<String> headers = Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(30)
                .filter(s -> s.indexOf('}') < 0 && s.indexOf('"') < 0);
        return Builders.withBuilder(HaproxyRequest::newBuilder)
                .use(Arbitraries.of(HaproxyLogFormat.class)).in((b, v) -> b.setFormat(v))
                .use(instants(ChronoUnit.MILLIS)).in((b, v) -> b.setTs(v))
                .use(prefix).in((b, v) -> b.setHost(v[0]).setProcess(v[0] == null && v[1] == null ? null : v[1])
                        .setPid(v[2] == null || v[1] == null ? null : Integer.valueOf(v[2])))
                .use(maybe(ip())).in((b, v) -> b.setClientIp(v))
                .use(ports()).in((b, v) -> b.setClientPort(v))
                .use(token("-")).in((b, v) -> b.setFrontend(v))
                .use(Arbitraries.of(true, false)).in((b, v) -> b.setSsl(v))
                .use(token("-:")).in((b, v) -> b.setBackend(v))
                .use(Arbitraries.oneOf(token("-:"), Arbitraries.just("<NOSRV>"))).in((b, v) -> b.setServer(v))
                .use(timer).in((b, v) -> b.setTr(v))
                .use(timer).in((b, v) -> b.setTw(v))
                .use(timer).in((b, v) -> b.setTc(v))
                .use(timer).in((b, v) -> b.setTrServer(v))
                .use(timer).in((b, v) -> b.setTa(v))
                .use(Arbitraries.of(true, false)).in((b, v) -> b.setLogasap(v))
                .use(maybe(Arbitraries.integers().between(100, 599))).in((b, v) -> b.setStatusCode(v))
                .use(Arbitraries.longs().between(0, 1L << 40)).in((b, v) -> b.setBytesRead(v))
                .use(Arbitraries.of(true, false)).in((b, v) -> b.setBytesLogasap(v))
                .use(maybe(token("=-"))).in((b, v) -> b.setCapturedRequestCookie(v))
                .use(maybe(token("=-"))).in((b, v) -> b.setCapturedResponseCookie(v))
                .use(Arbitraries.of("----", "PT--", "sQ--", "SC--", "CD--", "--VR", "cR--", "LR--")).in((b, v) -> b.setTerminationState(v))
                .use(count).in((b, v) -> b.setActconn(v))
                .use(count).in((b, v) -> b.setFeconn(v))
                .use(count).in((b, v) -> b.setBeconn(v))
                .use(count).in((b, v) -> b.setSrvConn(v))
                .use(Arbitraries.integers().between(0, 10)).in((b, v) -> b.setRetries(v))
                .use(Arbitraries.of(true, false)).in((b, v) -> b.setRedispatched(v))
                .use(count).in((b, v) -> b.setSrvQueue(v))
                .use(count).in((b, v) -> b.setBackendQueue(v))
                .use(maybe(headers)).in((b, v) -> b.setCapturedRequestHeaders(v))
                .use(maybe(headers)).in((b, v) -> b.setCapturedResponseHeaders(v))
                .use(request).in((b, v) -> b.setHttpMethod(v[0]).setHttpUri(v[1]).setHttpVersion(v[2]))
                .use(token("-")).in((b, v) -> b.setBind(v))
                .use(text().map(String::strip).filter(s -> !s.isEmpty())).in((b, v) -> b.setError(v))
                .build(b -> shapedLikeItsFormat(b.build()));
    }

    /** Each format carries only its own fields. */
    private static HaproxyRequest shapedLikeItsFormat(HaproxyRequest r) {
        HaproxyRequest.Builder b = HaproxyRequest.newBuilder(r);
        if (r.getCapturedRequestHeaders() == null) {
            b.setCapturedResponseHeaders(null);
        }
        switch (r.getFormat()) {
            case http -> b.setBind(null).setError(null);
            case tcp -> b.setBind(null).setError(null).setTr(null).setTrServer(null).setStatusCode(null)
                    .setCapturedRequestCookie(null).setCapturedResponseCookie(null).setCapturedRequestHeaders(null)
                    .setCapturedResponseHeaders(null).setHttpMethod(null).setHttpUri(null).setHttpVersion(null)
                    .setTerminationState(r.getTerminationState().substring(0, 2));
            case error -> b.setSsl(false).setBackend(null).setServer(null).setTr(null).setTw(null).setTc(null)
                    .setTrServer(null).setTa(null).setLogasap(false).setStatusCode(null).setBytesRead(null)
                    .setBytesLogasap(false).setCapturedRequestCookie(null).setCapturedResponseCookie(null)
                    .setTerminationState(null).setActconn(null).setFeconn(null).setBeconn(null).setSrvConn(null)
                    .setRetries(null).setRedispatched(false).setSrvQueue(null).setBackendQueue(null)
                    .setCapturedRequestHeaders(null).setCapturedResponseHeaders(null).setHttpMethod(null)
                    .setHttpUri(null).setHttpVersion(null);
            default -> throw new IllegalStateException();
        }
        return b.build();
    }

    @Property(tries = 1000)
    void haproxyRequestsFormatAndParseBackEqual(@ForAll("haproxyRequests") HaproxyRequest r) {
        String line = haproxyFormat.format(r);
        assertThat(AvroForm.of(haproxy.parse(line))).as(line).isEqualTo(ParseResult.<SpecificRecord>ok(r));
    }

    // ---- health checks -------------------------------------------------------------------------

    /** HAProxy check descriptions with the outcome a failed check reports for them. */
    private static final List<Object[]> HAPROXY_FAILURES = List.of(
            new Object[] {"Layer4 timeout", CheckOutcome.timeout}, new Object[] {"Layer7 timeout", CheckOutcome.timeout},
            new Object[] {"Layer4 connection problem", CheckOutcome.connect_error},
            new Object[] {"Layer7 wrong status", CheckOutcome.http_status},
            new Object[] {"Layer7 invalid response", CheckOutcome.other}, new Object[] {"Health analyze", CheckOutcome.other},
            new Object[] {null, CheckOutcome.other});

    @Provide
    Arbitrary<HealthCheckResult> haproxyChecks() {
        Arbitrary<Object[]> verdict = Arbitraries.oneOf(
                Arbitraries.of("Layer4 check passed", "Layer7 check passed").injectNull(0.2)
                        .map(reason -> new Object[] {reason, CheckOutcome.pass}),
                Arbitraries.of(HAPROXY_FAILURES));
        return Combinators.combine(instants(ChronoUnit.MILLIS), maybe(token("-")), token("-:"), token("-:"), verdict,
                maybe(Arbitraries.integers().between(0, 600_000)), maybe(Arbitraries.integers().between(100, 599)),
                Arbitraries.of(TargetState.healthy, TargetState.unhealthy, TargetState.draining))
                .flatAs((ts, lb, backend, server, v, latency, code, state) -> Arbitraries.integers().between(1, 100)
                        .map(threshold -> new HealthCheckResult(ts, "haproxy", lb, backend, server, null, null, null,
                                (CheckOutcome) v[1], latency, code, state, (String) v[0],
                                state == TargetState.unhealthy ? new CheckConfig(null, null, null, threshold, null)
                                        : new CheckConfig(null, null, null, null, threshold), null, null)));
    }

    @Property(tries = 500)
    void haproxyHealthCheckLinesParseBackEqual(@ForAll("haproxyChecks") HealthCheckResult r) {
        String line = haproxyFormat.healthCheck(r, 0);
        assertThat(AvroForm.of(haproxy.parse(line))).as(line).isEqualTo(ParseResult.<SpecificRecord>ok(r));
    }

    @Property(tries = 300)
    void haproxyServerStateLinesParseBackEqual(@ForAll("haproxyChecks") HealthCheckResult check,
                                              @ForAll boolean up, @ForAll("small") int active) {
        boolean reasonFits = up ? check.getOutcome() == CheckOutcome.pass : check.getOutcome() != CheckOutcome.pass;
        HealthCheckResult r = HealthCheckResult.newBuilder(check)
                .setState(up ? TargetState.healthy : TargetState.unhealthy)
                .setOutcome(up ? CheckOutcome.pass : check.getOutcome())
                .setReason(reasonFits ? check.getReason() : null)
                .setCheck(null).setActiveServersLeft(active).build();
        if (!up && r.getReason() == null) {
            r.setOutcome(CheckOutcome.other);
        }
        String line = haproxyFormat.serverState(r, 1);
        assertThat(AvroForm.of(haproxy.parse(line))).as(line).isEqualTo(ParseResult.<SpecificRecord>ok(r));
    }

    @Provide
    Arbitrary<Integer> small() {
        return Arbitraries.integers().between(0, 500);
    }

    @Property(tries = 200)
    void noServerLinesParseBackEqual(@ForAll("instantsMillis") Instant ts, @ForAll("hosts") String host) {
        BackendEvent e = new BackendEvent(ts, "haproxy", host, "be-1", BackendEventKind.no_server_available,
                "backend be-1 has no server available!");
        assertThat(AvroForm.of(haproxy.parse(haproxyFormat.noServerAvailable(e)))).isEqualTo(ParseResult.<SpecificRecord>ok(e));
    }

    @Provide
    Arbitrary<Instant> instantsMillis() {
        return instants(ChronoUnit.MILLIS);
    }

    @Provide
    Arbitrary<String> hosts() {
        return maybe(token("-"));
    }

    /** ALB health-check rows: the state written, reason code, status code, and the outcome they mean. */
    private static final List<Object[]> ALB_CHECKS = List.of(
            new Object[] {TargetState.healthy, null, 200, CheckOutcome.pass},
            new Object[] {null, null, 200, CheckOutcome.pass},
            new Object[] {TargetState.healthy, "Target.Timeout", null, CheckOutcome.timeout},
            new Object[] {TargetState.unhealthy, "Target.Timeout", null, CheckOutcome.timeout},
            new Object[] {TargetState.unhealthy, "Target.ResponseCodeMismatch", 503, CheckOutcome.http_status},
            new Object[] {TargetState.unhealthy, "ConnectionRefused", null, CheckOutcome.connect_error},
            new Object[] {TargetState.unhealthy, "Target.FailedHealthChecks", 500, CheckOutcome.http_status},
            new Object[] {TargetState.unhealthy, "Target.FailedHealthChecks", null, CheckOutcome.other},
            new Object[] {TargetState.initial, "Elb.InitialHealthChecking", null, CheckOutcome.other},
            new Object[] {TargetState.draining, "Target.DeregistrationInProgress", null, CheckOutcome.other},
            new Object[] {TargetState.unused, "Target.NotInUse", null, CheckOutcome.other},
            new Object[] {TargetState.unavailable, "Elb.InternalError", null, CheckOutcome.other},
            new Object[] {null, "Target.Timeout", null, CheckOutcome.timeout});

    @Provide
    Arbitrary<HealthCheckResult> albChecks() {
        Arbitrary<HostPort> address = maybe(Combinators.combine(ip(), ports()).as(HostPort::new));
        return Combinators.combine(instants(ChronoUnit.MILLIS), token("-"), address,
                token("-").map(id -> "i-" + id), Arbitraries.of(ALB_CHECKS),
                maybe(Arbitraries.integers().between(0, 600_000)))
                .as((ts, tg, hp, instance, row, latency) -> new HealthCheckResult(ts, "alb", null, tg,
                        hp == null ? instance : LineFields.hostPort(hp.host(), hp.port()),
                        hp == null ? null : hp.host(), hp == null ? null : hp.port(), null, (CheckOutcome) row[3],
                        latency, (Integer) row[2], (TargetState) row[0], (String) row[1], null, null, null));
    }

    @Property(tries = 500)
    void albHealthCheckEntriesParseBackEqual(@ForAll("albChecks") HealthCheckResult r) {
        String line = AlbHealthCheckLogFormat.format(r);
        assertThat(albHealth.parse(line)).as(line).isEqualTo(ParseResult.ok(r));
    }

    // ---- JSON ----------------------------------------------------------------------------------

    @Provide
    Arbitrary<HealthCheckResult> anyHealthCheckResults() {
        Arbitrary<String> anyText = Arbitraries.strings().ofMaxLength(20);
        Arbitrary<Integer> anyInt = maybe(Arbitraries.integers().between(0, Integer.MAX_VALUE));
        Arbitrary<CheckConfig> check = maybe(Combinators.combine(maybe(anyText), anyInt, anyInt, anyInt, anyInt)
                .as(CheckConfig::new));
        return Builders.withBuilder(HealthCheckResult::newBuilder)
                .use(instants(ChronoUnit.MILLIS)).in((b, v) -> b.setTs(v))
                .use(maybe(anyText)).in((b, v) -> b.setSource(v))
                .use(maybe(anyText)).in((b, v) -> b.setLb(v))
                .use(anyText.filter(s -> !s.isBlank())).in((b, v) -> b.setTargetGroup(v))
                .use(anyText.filter(s -> !s.isBlank())).in((b, v) -> b.setTarget(v))
                .use(maybe(ip())).in((b, v) -> b.setTargetIp(v))
                .use(maybe(ports())).in((b, v) -> b.setPort(v))
                .use(maybe(anyText)).in((b, v) -> b.setAz(v))
                .use(Arbitraries.of(CheckOutcome.class)).in((b, v) -> b.setOutcome(v))
                .use(anyInt).in((b, v) -> b.setLatencyMs(v))
                .use(maybe(Arbitraries.integers().between(100, 599))).in((b, v) -> b.setStatusCode(v))
                .use(maybe(Arbitraries.of(TargetState.class))).in((b, v) -> b.setState(v))
                .use(maybe(anyText)).in((b, v) -> b.setReason(v))
                .use(check).in((b, v) -> b.setCheck(v))
                .use(maybe(instants(ChronoUnit.MILLIS))).in((b, v) -> b.setRegisteredAt(v))
                .use(anyInt).in((b, v) -> b.setActiveServersLeft(v))
                .build(HealthCheckResult.Builder::build);
    }

    @Property(tries = 500)
    void healthCheckJsonReadsBackEqual(@ForAll("anyHealthCheckResults") HealthCheckResult r) {
        assertThat(new HealthCheckResultJson().parse(HealthCheckResultJson.write(r))).isEqualTo(ParseResult.ok(r));
    }

    @Provide
    Arbitrary<LbConfig> anyLbConfigs() {
        Arbitrary<String> anyText = Arbitraries.strings().ofMaxLength(20);
        Arbitrary<Integer> anyCount = maybe(Arbitraries.integers().between(0, Integer.MAX_VALUE));
        Arbitrary<Thresholds> thresholds = maybe(Combinators.combine(anyCount,
                maybe(Arbitraries.doubles().between(0, 100))).as(Thresholds::new));
        return Builders.withBuilder(LbConfig::newBuilder)
                .use(Arbitraries.of(ConfigKind.class)).in((b, v) -> b.setKind(v))
                .use(anyText.filter(s -> !s.isBlank())).in((b, v) -> b.setId(v))
                .use(instants(ChronoUnit.MILLIS)).in((b, v) -> b.setTs(v))
                .use(maybe(anyText)).in((b, v) -> b.setLb(v))
                .use(maybe(Arbitraries.of(true, false))).in((b, v) -> b.setCrossZone(v))
                .use(anyCount).in((b, v) -> b.setRegisteredTargets(v))
                .use(thresholds).in((b, v) -> b.setUnhealthyStateRouting(v))
                .use(thresholds).in((b, v) -> b.setDnsFailover(v))
                .use(maybe(anyText)).in((b, v) -> b.setHost(v))
                .use(maybe(anyText)).in((b, v) -> b.setFrontend(v))
                .use(anyCount).in((b, v) -> b.setMaxconn(v))
                .use(maybe(Arbitraries.maps(anyText, anyText.filter(s -> !s.isBlank())).ofMaxSize(4)))
                .in((b, v) -> b.setTargetZones(v))
                .use(maybe(Arbitraries.maps(anyText, Arbitraries.of("10.0.1.0/24", "0.0.0.0/0", "2001:db8::/56", "10.0.2.17/32")
                        .list().ofMaxSize(3)).ofMaxSize(3)))
                .in((b, v) -> b.setZoneCidrs(v))
                .build(LbConfig.Builder::build);
    }

    @Property(tries = 500)
    void lbConfigJsonReadsBackEqual(@ForAll("anyLbConfigs") LbConfig c) {
        assertThat(new LbConfigJson().parse(LbConfigJson.write(c))).isEqualTo(ParseResult.ok(c));
    }
}
