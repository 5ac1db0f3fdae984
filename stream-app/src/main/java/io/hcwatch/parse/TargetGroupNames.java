package io.hcwatch.parse;

/** Target group names from ALB identifiers. */
final class TargetGroupNames {

    private static final String MARKER = "targetgroup/";

    private TargetGroupNames() {
    }

    /**
     * The name in {@code arn:aws:elasticloadbalancing:region:acct:targetgroup/NAME/id}; also accepts
     * the {@code targetgroup/NAME/id} suffix alone. Null when the text holds no {@code targetgroup/}.
     */
    static String fromArn(String arn) {
        if (arn == null) {
            return null;
        }
        int at = arn.indexOf(MARKER);
        if (at < 0) {
            return null;
        }
        int start = at + MARKER.length();
        int end = arn.indexOf('/', start);
        String name = end < 0 ? arn.substring(start) : arn.substring(start, end);
        return name.isEmpty() ? null : name;
    }
}
