package io.hcwatch.simulate;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertScope;
import io.hcwatch.avro.v1.AlertStatus;
import io.hcwatch.avro.v1.Severity;
import io.hcwatch.serde.AlertJson;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Judges what hcwatch raised on a scenario against what the scenario expects: every expected
 * alert fired (severity warning or above) within its deadline after the onset, with the right
 * scope and details; nothing fired before the onset; nothing fired that the scenario does not
 * expect or allow; every simulated record parsed.
 *
 * <p>An expected alert's details may show up in a later notification of the same episode than
 * the first firing (a re-notification or the resolve, which carries the last details): the
 * evidence of some conditions only exists after they start, e.g. the requests that reached
 * unhealthy targets once the load balancer failed open.
 */
public record ScenarioVerdict(List<String> problems, Map<ExpectedAlert, Detection> detections) {

    /** When an expected alert fired, relative to the onset, and the notification that did it. */
    public record Detection(ExpectedAlert expected, Alert alert, Duration afterOnset) {
    }

    public boolean passed() {
        return problems.isEmpty();
    }

    public static ScenarioVerdict of(ScenarioReplay.Result result) {
        List<String> problems = new ArrayList<>();
        Map<ExpectedAlert, Detection> detections = new LinkedHashMap<>();
        long onset = result.onsetMillis();
        List<ExpectedAlert> expected = result.scenario().expectations(result.params());
        if (!result.deadLetters().isEmpty()) {
            problems.add(result.deadLetters().size() + " simulated records did not parse, first: "
                    + result.deadLetters().get(0).getReason() + " " + result.deadLetters().get(0).getError());
        }
        for (ExpectedAlert e : expected) {
            Detection d = detect(result, e, onset);
            if (d == null) {
                problems.add("expected " + e.type() + " " + e.scope() + " within " + e.within() + " of the onset (" + e.why()
                        + "), got " + firingOfType(result, e.type()));
            } else {
                detections.put(e, d);
            }
        }
        for (Alert a : result.alerts()) {
            if (a.getStatus() != AlertStatus.firing || a.getSeverity() == Severity.info) {
                continue;
            }
            long at = a.getEventTime().toEpochMilli();
            boolean expectedType = expected.stream().anyMatch(e -> e.type().equals(a.getType()));
            Map<String, String> allowed = result.scenario().alsoAllowed().get(a.getType());
            if (at < onset) {
                problems.add("fired before the onset: " + describe(a, onset));
            } else if (!expectedType && (allowed == null || !carries(a, allowed))) {
                problems.add("unexpected alert: " + describe(a, onset) + (allowed == null ? "" : ", without " + allowed));
            }
        }
        return new ScenarioVerdict(List.copyOf(problems), detections);
    }

    private static Detection detect(ScenarioReplay.Result result, ExpectedAlert e, long onset) {
        long deadline = onset + e.within().toMillis();
        for (Alert a : result.alerts()) {
            long at = a.getEventTime().toEpochMilli();
            if (a.getStatus() != AlertStatus.firing || !a.getType().equals(e.type()) || at < onset || at > deadline
                    || !scopeMatches(e, a.getScope())) {
                continue;
            }
            if (detailsMatch(e, result.alerts(), a.getAlertId())) {
                return new Detection(e, a, Duration.ofMillis(at - onset));
            }
        }
        return null;
    }

    private static boolean scopeMatches(ExpectedAlert e, AlertScope scope) {
        for (Map.Entry<String, String> want : e.scope().entrySet()) {
            String actual = AlertJson.scopeValue(scope, want.getKey());
            if (!ExpectedAlert.matches(want.getValue(), actual)) {
                return false;
            }
        }
        return true;
    }

    /** Every expected detail holds in some notification of the episode. */
    private static boolean detailsMatch(ExpectedAlert e, List<Alert> alerts, String alertId) {
        for (Map.Entry<String, String> want : e.details().entrySet()) {
            boolean found = false;
            for (Alert a : alerts) {
                if (a.getAlertId().equals(alertId) && ExpectedAlert.matches(want.getValue(), a.getDetails().get(want.getKey()))) {
                    found = true;
                    break;
                }
            }
            if (!found) {
                return false;
            }
        }
        return true;
    }

    private static boolean carries(Alert a, Map<String, String> details) {
        return details.entrySet().stream().allMatch(d -> ExpectedAlert.matches(d.getValue(), a.getDetails().get(d.getKey())));
    }

    private static List<String> firingOfType(ScenarioReplay.Result result, String type) {
        List<String> out = new ArrayList<>();
        for (Alert a : result.alerts()) {
            if (a.getType().equals(type) && a.getStatus() == AlertStatus.firing) {
                out.add(describe(a, result.onsetMillis()));
            }
        }
        return out;
    }

    static String describe(Alert a, long onset) {
        long s = (a.getEventTime().toEpochMilli() - onset) / 1000;
        return a.getType() + " " + a.getSeverity() + " at onset" + (s >= 0 ? "+" : "") + s + "s (" + a.getDedupKey() + ")";
    }
}
