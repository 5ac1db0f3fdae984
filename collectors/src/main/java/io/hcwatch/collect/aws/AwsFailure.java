package io.hcwatch.collect.aws;

import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * A failed AWS request as the collectors log and count it: a short reason for metrics and a message
 * for the log, and the request id apart (it differs at every attempt, so the rate-limited error log
 * compares messages without it). The message is built from the error code, HTTP status and the service's
 * message, cut to {@value #MAX_MESSAGE} characters, and with the current secret key and session
 * token taken out wherever they appear: a stand-in or proxy that echoes the request would otherwise
 * put a session token into a log line. An exception's own text is never logged raw.
 *
 * @param reason one of {@code throttled}, {@code access_denied}, {@code not_found}, {@code client_error},
 *               {@code server_error}, {@code timeout}, {@code connection_refused}, {@code unreachable},
 *               {@code bad_response}, {@code io_error}
 */
public record AwsFailure(String reason, String message, boolean throttled, String requestId) {

    static final int MAX_MESSAGE = 300;
    private static final Set<String> THROTTLE_CODES = Set.of("Throttling", "ThrottlingException", "ThrottledException",
            "RequestLimitExceeded", "RequestThrottled", "RequestThrottledException", "TooManyRequestsException",
            "SlowDown", "ProvisionedThroughputExceededException", "RequestLimitExceededException");
    private static final Set<String> DENIED_CODES = Set.of("AccessDenied", "AccessDeniedException", "UnauthorizedOperation",
            "InvalidClientTokenId", "SignatureDoesNotMatch", "ExpiredToken", "ExpiredTokenException", "InvalidAccessKeyId",
            "UnrecognizedClientException", "MissingAuthenticationToken", "AuthFailure", "InvalidToken");

    /** Classifies {@code e}, hiding whatever secrets {@code credentials} holds now. */
    public static AwsFailure of(SdkException e, Supplier<AwsCredentials> credentials) {
        List<String> secrets = secrets(credentials);
        if (e instanceof AwsServiceException s) {
            String code = s.awsErrorDetails() == null ? null : s.awsErrorDetails().errorCode();
            int status = s.statusCode();
            String serviceMessage = s.awsErrorDetails() == null ? null : s.awsErrorDetails().errorMessage();
            boolean throttled = s.isThrottlingException() || (code != null && THROTTLE_CODES.contains(code)) || status == 429;
            String reason;
            if (throttled) {
                reason = "throttled";
            } else if (status == 401 || status == 403 || (code != null && DENIED_CODES.contains(code))) {
                reason = "access_denied";
            } else if (status == 404 || (code != null && (code.endsWith("NotFound") || code.endsWith("NotFoundException")
                    || code.equals("NoSuchKey") || code.equals("NoSuchBucket") || code.startsWith("AWS.SimpleQueueService.NonExistentQueue")))) {
                reason = "not_found";
            } else if (status >= 500) {
                reason = "server_error";
            } else {
                reason = "client_error";
            }
            String text = (code == null ? "no error code" : code) + " (HTTP " + status + ")"
                    + (serviceMessage == null || serviceMessage.isBlank() ? "" : ": " + serviceMessage);
            return new AwsFailure(reason, clean(text, secrets), throttled,
                    s.requestId() == null ? "no request id" : "request id " + clean(s.requestId(), secrets));
        }
        Throwable root = rootCause(e);
        String reason;
        if (e instanceof ApiCallAttemptTimeoutException || e instanceof ApiCallTimeoutException
                || root instanceof SocketTimeoutException || (root instanceof InterruptedIOException && !(root instanceof SocketTimeoutException))) {
            reason = "timeout";
        } else if (root instanceof ConnectException) {
            reason = "connection_refused";
        } else if (root instanceof UnknownHostException || root instanceof NoRouteToHostException) {
            reason = "unreachable";
        } else if (isUnmarshalling(e)) {
            reason = "bad_response";
        } else {
            reason = "io_error";
        }
        String text = e.getClass().getSimpleName() + ": " + e.getMessage()
                + (root != e ? " (" + root.getClass().getSimpleName() + ": " + root.getMessage() + ")" : "");
        return new AwsFailure(reason, clean(text, secrets), false, "no request id");
    }

    private static boolean isUnmarshalling(SdkException e) {
        String m = String.valueOf(e.getMessage()).toLowerCase(java.util.Locale.ROOT);
        return m.contains("unmarshall") || m.contains("parse") || m.contains("xml") || m.contains("json");
    }

    private static Throwable rootCause(Throwable e) {
        Throwable t = e;
        for (int depth = 0; t.getCause() != null && t.getCause() != t && depth < 10; depth++) {
            t = t.getCause();
        }
        return t;
    }

    private static List<String> secrets(Supplier<AwsCredentials> credentials) {
        List<String> out = new ArrayList<>(2);
        try {
            AwsCredentials c = credentials.get();
            if (c != null) {
                addSecret(out, c.secretAccessKey());
                if (c instanceof AwsSessionCredentials session) {
                    addSecret(out, session.sessionToken());
                }
            }
        } catch (RuntimeException e) {
            // no credentials at all: nothing to hide, and the failure says so itself
        }
        return out;
    }

    private static void addSecret(List<String> out, String secret) {
        if (secret != null && secret.length() >= 8) {
            out.add(secret);
        }
    }

    /** One line, secrets replaced, bounded: safe to log as it is. */
    static String clean(String text, List<String> secrets) {
        String t = text;
        for (String secret : secrets) {
            t = t.replace(secret, "[redacted]");
        }
        t = t.replace('\n', ' ').replace('\r', ' ');
        if (t.length() > MAX_MESSAGE) {
            t = t.substring(0, MAX_MESSAGE) + "...";
        }
        // a secret cut in two by the bound above must not leave its first part behind
        for (String secret : secrets) {
            for (int n = secret.length() - 1; n >= 4; n--) {
                if (t.endsWith(secret.substring(0, n) + "...")) {
                    t = t.substring(0, t.length() - 3 - n) + "[redacted]...";
                    break;
                }
            }
        }
        return t;
    }
}
