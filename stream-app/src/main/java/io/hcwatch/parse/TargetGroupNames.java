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
        return arn == null ? null : fromArn(arn, 0, arn.length());
    }

    /** The same, read from {@code s[from, to)} without copying the ARN out first. */
    static String fromArn(String s, int from, int to) {
        int at = s.indexOf(MARKER, from);
        if (at < 0 || at + MARKER.length() > to) {
            return null;
        }
        int start = at + MARKER.length();
        int end = s.indexOf('/', start);
        if (end < 0 || end > to) {
            end = to;
        }
        return end == start ? null : s.substring(start, end);
    }
}
