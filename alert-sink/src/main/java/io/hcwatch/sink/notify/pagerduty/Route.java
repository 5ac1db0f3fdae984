package io.hcwatch.sink.notify.pagerduty;

import io.hcwatch.avro.v1.Severity;
import io.hcwatch.sink.notify.Page;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Sends matching alerts to one PagerDuty service. Empty matchers match everything; a
 * target-group pattern is a glob ({@code *}, {@code ?}) and needs a target group to match.
 */
public record Route(String name, Set<String> types, Set<Severity> severities, Pattern targetGroup, RoutingKey key) {

    public Route {
        types = Set.copyOf(types);
        severities = Set.copyOf(severities);
    }

    /** @param targetGroupGlob null to match any target group, or none */
    public static Route of(String name, Set<String> types, Set<Severity> severities, String targetGroupGlob, RoutingKey key) {
        return new Route(name, types, severities, targetGroupGlob == null ? null : globToRegex(targetGroupGlob), key);
    }

    /** An incident matches by its headline type, its severity and the target group it is about. */
    public boolean matches(Page page) {
        if (!types.isEmpty() && !types.contains(page.type())) {
            return false;
        }
        if (!severities.isEmpty() && !severities.contains(page.severity())) {
            return false;
        }
        if (this.targetGroup == null) {
            return true;
        }
        String group = page.targetGroup();
        return group != null && this.targetGroup.matcher(group).matches();
    }

    static Pattern globToRegex(String glob) {
        StringBuilder regex = new StringBuilder();
        for (char c : glob.toCharArray()) {
            switch (c) {
                case '*' -> regex.append(".*");
                case '?' -> regex.append('.');
                default -> regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString());
    }
}
