package io.hcwatch.detect.fleet;

/**
 * A target group's health thresholds (ALB "target group health"): a count, a percentage, or
 * both; the action is taken when either is breached. AWS ships count 1, percentage off.
 */
public record FleetThresholds(Integer minHealthyCount, Double minHealthyPercent) {

    public static final FleetThresholds AWS_DEFAULT = new FleetThresholds(1, null);

    /** Healthy targets needed among {@code registered} to not breach: max(count, ceil(percent x registered)). */
    public int required(int registered) {
        int byCount = minHealthyCount == null ? 0 : minHealthyCount;
        int byPercent = minHealthyPercent == null || minHealthyPercent <= 0
                ? 0 : (int) Math.ceil(minHealthyPercent / 100.0 * registered - 1e-9);
        return Math.max(byCount, byPercent);
    }

    public boolean breached(int healthy, int registered) {
        return registered > 0 && healthy < required(registered);
    }

    public String describe() {
        StringBuilder sb = new StringBuilder();
        if (minHealthyCount != null && minHealthyCount > 0) {
            sb.append("count ").append(minHealthyCount);
        }
        if (minHealthyPercent != null && minHealthyPercent > 0) {
            sb.append(sb.length() > 0 ? ", " : "").append(trim(minHealthyPercent)).append('%');
        }
        return sb.length() == 0 ? "off" : sb.toString();
    }

    private static String trim(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
    }
}
