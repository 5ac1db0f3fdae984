package io.hcwatch.collect.aws;

/** A request to an AWS API that failed; its message is safe to log (AwsFailure). */
public final class ApiException extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient AwsFailure failure;
    private final String api;

    public ApiException(String api, AwsFailure failure) {
        super(api + ": " + failure.reason() + ": " + failure.message(), null, false, false);
        this.api = api;
        this.failure = failure;
    }

    public AwsFailure failure() {
        return failure;
    }

    public String api() {
        return api;
    }
}
