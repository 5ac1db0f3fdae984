package io.hcwatch.input;

/**
 * What traffic summaries use of one ALB access-log line. The live path reads ALB lines into this
 * instead of a full {@link io.hcwatch.avro.v1.AlbRequest}: the same checks, without materialising the
 * twenty-odd text fields nothing downstream reads. Absent values are null, or -1 for
 * {@code elbStatusCode} and {@code targetPort}, or NaN for {@code targetProcessingTime}.
 *
 * @param time                 epoch milliseconds of the response (field 2)
 * @param targetGroup          the name from the target group ARN
 * @param targetProcessingTime seconds
 */
public record AlbTrafficLine(long time, String elb, String targetGroup, String clientIp, String targetIp, int targetPort,
                             double targetProcessingTime, int elbStatusCode, String requestMethod, String requestUrl)
        implements Decoded {

    @Override
    public long eventTime() {
        return time;
    }

    @Override
    public <R> R accept(Decoded.Cases<R> cases) {
        return cases.albLine(this);
    }
}
