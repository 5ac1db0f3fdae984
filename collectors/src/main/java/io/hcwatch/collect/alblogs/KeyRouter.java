package io.hcwatch.collect.alblogs;

import java.util.regex.Pattern;

/**
 * Which topic an object's lines go to, by its key: ALB access logs
 * ({@code AWSLogs/<account>/elasticloadbalancing/<region>/yyyy/mm/dd/<account>_elasticloadbalancing_<region>_app.<lb>.<id>_<end>_<ip>_<random>.log.gz})
 * and health-check logs (the same folders, file name {@code health_check_log_<account>_elasticloadbalancing_...}).
 * Connection logs ({@code conn_log_...}) and anything else match neither and are skipped.
 */
record KeyRouter(Pattern access, Pattern health) {

    enum Route { ACCESS, HEALTH }

    static final String DEFAULT_ACCESS =
            "(^|/)AWSLogs/\\d{12}/elasticloadbalancing/[a-z0-9-]+/\\d{4}/\\d{2}/\\d{2}/\\d{12}_elasticloadbalancing_[a-z0-9-]+_app\\.[^/]+\\.log(\\.gz)?$";
    static final String DEFAULT_HEALTH =
            "(^|/)AWSLogs/\\d{12}/elasticloadbalancing/[a-z0-9-]+/\\d{4}/\\d{2}/\\d{2}/health_check_log_\\d{12}_elasticloadbalancing_[a-z0-9-]+_app\\.[^/]+\\.log(\\.gz)?$";

    /** Health-check first: its pattern is the narrower one. Null when the key matches neither. */
    Route route(String key) {
        if (health.matcher(key).find()) {
            return Route.HEALTH;
        }
        if (access.matcher(key).find()) {
            return Route.ACCESS;
        }
        return null;
    }
}
