package io.hcwatch.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.AlbRequest;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class AlbAccessLogParserTest {

    private final AlbAccessLogParser parser = new AlbAccessLogParser();
    private final List<String> samples = Samples.lines("alb-access.log");

    private AlbRequest sample(int index) {
        ParseResult<AlbRequest> result = parser.parse(samples.get(index));
        assertThat(result).isInstanceOf(ParseResult.Ok.class);
        return ((ParseResult.Ok<AlbRequest>) result).value();
    }

    @Test
    void readsEveryFieldOfTodaysThirtyThreeFieldLine() {
        AlbRequest r = sample(0);
        assertThat(r.getType()).isEqualTo("https");
        assertThat(r.getTime()).isEqualTo(Instant.parse("2026-03-03T14:32:45.120417Z"));
        assertThat(r.getElb()).isEqualTo("app/prod-web/50dc6c495c0c9188");
        assertThat(r.getClientIp()).isEqualTo("203.0.113.7");
        assertThat(r.getClientPort()).isEqualTo(53122);
        assertThat(r.getTargetIp()).isEqualTo("10.0.1.17");
        assertThat(r.getTargetPort()).isEqualTo(8080);
        assertThat(r.getRequestProcessingTime()).isEqualTo(0.001);
        assertThat(r.getTargetProcessingTime()).isEqualTo(0.212);
        assertThat(r.getResponseProcessingTime()).isEqualTo(0.0);
        assertThat(r.getElbStatusCode()).isEqualTo(200);
        assertThat(r.getTargetStatusCode()).isEqualTo(200);
        assertThat(r.getReceivedBytes()).isEqualTo(412L);
        assertThat(r.getSentBytes()).isEqualTo(3091L);
        assertThat(r.getRequest()).isEqualTo("GET https://shop.example.net:443/api/cart?id=42 HTTP/1.1");
        assertThat(r.getRequestMethod()).isEqualTo("GET");
        assertThat(r.getRequestUrl()).isEqualTo("https://shop.example.net:443/api/cart?id=42");
        assertThat(r.getRequestProtocol()).isEqualTo("HTTP/1.1");
        assertThat(r.getUserAgent()).isEqualTo("Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0");
        assertThat(r.getSslCipher()).isEqualTo("TLS_AES_128_GCM_SHA256");
        assertThat(r.getSslProtocol()).isEqualTo("TLSv1.3");
        assertThat(r.getTargetGroupArn()).endsWith("targetgroup/prod-web-tg/6d0ecf831eec9f09");
        assertThat(r.getTargetGroup()).isEqualTo("prod-web-tg");
        assertThat(r.getTraceId()).isEqualTo("Root=1-65e48a2d-1c2b3d4e5f60718293a4b5c6");
        assertThat(r.getDomainName()).isEqualTo("shop.example.net");
        assertThat(r.getChosenCertArn()).startsWith("arn:aws:acm:");
        assertThat(r.getMatchedRulePriority()).isEqualTo(10);
        assertThat(r.getRequestCreationTime()).isEqualTo(Instant.parse("2026-03-03T14:32:44.907Z"));
        assertThat(r.getActionsExecuted()).isEqualTo("forward");
        assertThat(r.getRedirectUrl()).isNull();
        assertThat(r.getErrorReason()).isNull();
        assertThat(r.getTargetPortList()).isEqualTo("10.0.1.17:8080");
        assertThat(r.getTargetStatusCodeList()).isEqualTo("200");
        assertThat(r.getClassification()).isNull();
        assertThat(r.getClassificationReason()).isNull();
        assertThat(r.getConnTraceId()).isEqualTo("TID_9f1c2b3a4d5e6f708192a3b4c5d6e7f8");
        assertThat(r.getTransformedHost()).isNull();
        assertThat(r.getTransformedUri()).isNull();
        assertThat(r.getRequestTransformStatus()).isNull();
        assertThat(r.getFieldCount()).isEqualTo(33);
    }

    @Test
    void elbGenerated504KeepsTheTargetButHasNoTargetStatusOrTimes() {
        AlbRequest r = sample(1);
        assertThat(r.getElbStatusCode()).isEqualTo(504);
        assertThat(r.getTargetStatusCode()).isNull();
        assertThat(r.getTargetProcessingTime()).isNull();
        assertThat(r.getResponseProcessingTime()).isNull();
        assertThat(r.getTargetIp()).isEqualTo("10.0.2.31");
        assertThat(r.getFieldCount()).isEqualTo(30);
    }

    @Test
    void a503WithTargetDashHasNoTarget() {
        AlbRequest r = sample(2);
        assertThat(r.getElbStatusCode()).isEqualTo(503);
        assertThat(r.getTargetIp()).isNull();
        assertThat(r.getTargetPort()).isNull();
        assertThat(r.getChosenCertArn()).isEqualTo("session-reused");
    }

    @Test
    void olderLayoutsLeaveTheLaterFieldsNull() {
        AlbRequest twentyFive = sample(3);
        assertThat(twentyFive.getFieldCount()).isEqualTo(25);
        assertThat(twentyFive.getElbStatusCode()).isEqualTo(460);
        assertThat(twentyFive.getErrorReason()).isNull();
        assertThat(twentyFive.getTargetPortList()).isNull();
        AlbRequest twenty = sample(4);
        assertThat(twenty.getFieldCount()).isEqualTo(20);
        assertThat(twenty.getChosenCertArn()).isNull();
        assertThat(twenty.getMatchedRulePriority()).isNull();
        assertThat(twenty.getRequestCreationTime()).isNull();
        AlbRequest twentyOne = sample(5);
        assertThat(twentyOne.getFieldCount()).isEqualTo(21);
        assertThat(twentyOne.getMatchedRulePriority()).isEqualTo(0);
    }

    @Test
    void ipv6ClientsSplitAtTheLastColonAndBracketedTargetsLoseTheirBrackets() {
        AlbRequest r = sample(6);
        assertThat(r.getType()).isEqualTo("grpcs");
        assertThat(r.getClientIp()).isEqualTo("2001:db8:85a3::8a2e:370:7334");
        assertThat(r.getClientPort()).isEqualTo(61000);
        assertThat(r.getTargetIp()).isEqualTo("fd00:10::17");
        assertThat(r.getTargetPort()).isEqualTo(50051);
    }

    @Test
    void fieldsBeyondTheKnownOnesAreIgnoredButCounted() {
        AlbRequest r = sample(7);
        assertThat(r.getFieldCount()).isEqualTo(34);
        assertThat(r.getRequestTransformStatus()).isNull();
        assertThat(r.getUserAgent()).isNull();
    }

    @Test
    void aMalformedRequestLineHasNoMethodUrlOrProtocol() {
        AlbRequest r = sample(8);
        assertThat(r.getRequest()).isEqualTo("- - -");
        assertThat(r.getRequestMethod()).isNull();
        assertThat(r.getRequestUrl()).isNull();
        assertThat(r.getRequestProtocol()).isNull();
        assertThat(r.getMatchedRulePriority()).isNull();
        assertThat(r.getTargetGroupArn()).isNull();
        assertThat(r.getTargetGroup()).isNull();
    }

    @Test
    void lambdaFailureKeepsItsErrorReason() {
        AlbRequest r = sample(9);
        assertThat(r.getErrorReason()).isEqualTo("LambdaInvalidResponse");
        assertThat(r.getTargetGroup()).isEqualTo("lambda-fn");
    }

    @Test
    void everySampleLineFormatsBackToItsOwnText() {
        for (String line : samples) {
            AlbRequest r = ((ParseResult.Ok<AlbRequest>) parser.parse(line)).value();
            assertThat(parser.parse(AlbLogFormat.format(r))).isEqualTo(ParseResult.ok(r));
            boolean bareIpv6 = r.getClientIp() != null && r.getClientIp().contains(":");
            if (r.getFieldCount() <= AlbAccessLogParser.KNOWN_FIELDS && !bareIpv6) {
                assertThat(AlbLogFormat.format(r)).isEqualTo(line);
            }
        }
    }

    @Test
    void formatsIpv6WithBracketsSoThePortStaysUnambiguous() {
        assertThat(AlbLogFormat.format(sample(6))).contains(" [2001:db8:85a3::8a2e:370:7334]:61000 ");
    }

    static Stream<Arguments> rejectedSamples() {
        return Samples.tabbed("alb-access-rejected.log").stream().map(p -> Arguments.of(p[0], p[1]));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rejectedSamples")
    void rejectsBrokenLinesWithAReasonAndAMessageNamingTheField(String reason, String line) {
        ParseResult<AlbRequest> result = parser.parse(line);
        assertThat(result).isInstanceOfSatisfying(ParseResult.Rejected.class, r -> {
            assertThat(r.reason()).isEqualTo(reason);
            assertThat(r.error()).contains("expected");
        });
    }

    @Test
    void emptyAndInvalidUtf8InputsAreRejected() {
        assertThat(parser.parse("")).isEqualTo(ParseResult.rejected(RejectReason.EMPTY, "line is empty"));
        assertThat(parser.parse(new byte[] {'h', 't', 't', 'p', ' ', (byte) 0xC3, (byte) 0x28}))
                .isInstanceOfSatisfying(ParseResult.Rejected.class,
                        r -> assertThat(r.reason()).isEqualTo(RejectReason.BAD_UTF8));
    }

    @Test
    void errorsShowAtMostEightyCharactersOfWhatTheFieldHeld() {
        String longElb = "x".repeat(500);
        String line = samples.get(0).replace("0.212", longElb);
        ParseResult<AlbRequest> result = parser.parse(line);
        assertThat(result).isInstanceOfSatisfying(ParseResult.Rejected.class, r -> {
            assertThat(r.reason()).isEqualTo(RejectReason.BAD_NUMBER);
            assertThat(r.error()).contains("target_processing_time").contains("(500 chars)").hasSizeLessThan(250);
        });
    }
}
