package io.hcwatch.collect.aws;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;

class AwsFailureTest {

    private static final String SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYSECRETKEY";
    private static final String TOKEN = "IQoJb3JpZ2luX2VjEXAMPLESESSIONTOKEN0123456789";
    private static final AwsSessionCredentials CREDENTIALS = AwsSessionCredentials.create("AKIAEXAMPLE", SECRET, TOKEN);

    private static AwsServiceException service(int status, String code, String message) {
        return AwsServiceException.builder().statusCode(status).requestId("req-1")
                .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage(message).build()).build();
    }

    @Test
    void throttlingCodesAndStatusesAreThrottles() {
        for (AwsServiceException e : List.of(service(400, "Throttling", "Rate exceeded"), service(400, "ThrottlingException", "x"),
                service(503, "SlowDown", "x"), service(429, "TooManyRequests", "x"))) {
            AwsFailure f = AwsFailure.of(e, () -> CREDENTIALS);
            assertThat(f.throttled()).as(e.awsErrorDetails().errorCode()).isTrue();
            assertThat(f.reason()).isEqualTo("throttled");
        }
    }

    @Test
    void errorsAreSortedIntoShortReasons() {
        assertThat(AwsFailure.of(service(403, "AccessDenied", "no"), () -> CREDENTIALS).reason()).isEqualTo("access_denied");
        assertThat(AwsFailure.of(service(400, "TargetGroupNotFound", "no"), () -> CREDENTIALS).reason()).isEqualTo("not_found");
        assertThat(AwsFailure.of(service(404, "NoSuchKey", "no"), () -> CREDENTIALS).reason()).isEqualTo("not_found");
        assertThat(AwsFailure.of(service(500, "InternalFailure", "no"), () -> CREDENTIALS).reason()).isEqualTo("server_error");
        assertThat(AwsFailure.of(service(400, "ValidationError", "no"), () -> CREDENTIALS).reason()).isEqualTo("client_error");
        assertThat(AwsFailure.of(SdkClientException.create("Unable to execute HTTP request", new ConnectException("Connection refused")),
                () -> CREDENTIALS).reason()).isEqualTo("connection_refused");
    }

    @Test
    void theSecretKeyAndSessionTokenAreTakenOutOfWhatTheServiceEchoes() {
        AwsFailure f = AwsFailure.of(service(403, "AccessDenied", "request was: X-Amz-Security-Token: " + TOKEN + " key " + SECRET),
                () -> CREDENTIALS);

        assertThat(f.message()).doesNotContain(SECRET).doesNotContain(TOKEN).contains("[redacted]", "AccessDenied", "HTTP 403");
        assertThat(f.requestId()).isEqualTo("request id req-1");
    }

    @Test
    void aSecretAcrossTheLengthBoundLeavesNoPartBehind() {
        String padding = "x".repeat(AwsFailure.MAX_MESSAGE - 5);
        String cut = AwsFailure.clean(padding + TOKEN + " and more", List.of(TOKEN));

        assertThat(cut).hasSize(AwsFailure.MAX_MESSAGE + 3).endsWith("...").doesNotContain(TOKEN.substring(0, 5));
        // a service that cut the token itself: its first part is taken off at the end too
        String echoedPart = AwsFailure.clean(padding + TOKEN.substring(0, 20), List.of(TOKEN));
        assertThat(echoedPart).doesNotContain(TOKEN.substring(0, 5));
    }
}
