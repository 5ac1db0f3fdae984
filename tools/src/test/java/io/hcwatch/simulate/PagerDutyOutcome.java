package io.hcwatch.simulate;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertStatus;
import io.hcwatch.avro.v1.Incident;
import io.hcwatch.avro.v1.IncidentChange;
import io.hcwatch.avro.v1.IncidentMember;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What PagerDuty would see of a scenario with the sink paging incidents: each incident page is one
 * event (opened and updated a trigger, resolved a resolve) and each incident id one PagerDuty incident.
 * Measured from the pages, the alerts they were made from and the scenario's onset, for ScenarioTest
 * and the tables of README and docs/scenarios.md.
 *
 * @param incidents            PagerDuty incidents opened (distinct incident ids)
 * @param events               events sent (every page)
 * @param scopes               distinct incident keys
 * @param maxEventsPerIncident the most events one incident took
 * @param firstPage            event time of the first page after the onset, or null without one
 * @param resolved             event time of the last resolve after the onset, or null without one
 * @param resolveAfterRecovery the longest any incident's resolve came after the last time one of its members held
 * @param pageLaterThanAlert   scopes whose first page came after the first alert of that scope
 * @param leftOpen             scopes whose alerts all ended resolved while their incident's last page is not a resolve
 */
record PagerDutyOutcome(int incidents, int events, int scopes, int maxEventsPerIncident, Duration firstPage, Duration resolved,
                        Duration resolveAfterRecovery, Set<String> pageLaterThanAlert, Set<String> leftOpen) {

    static PagerDutyOutcome of(ScenarioReplay.Result result) {
        List<Incident> pages = result.incidents();
        Map<String, Long> perIncident = pages.stream().collect(Collectors.groupingBy(Incident::getIncidentId, Collectors.counting()));
        Instant onset = result.params().onsetTime();
        Duration firstPage = pages.stream().map(Incident::getEventTime).min(Instant::compareTo)
                .map(t -> Duration.between(onset, t)).orElse(null);
        Duration resolved = pages.stream().filter(i -> i.getChange() == IncidentChange.resolved).map(Incident::getEventTime)
                .max(Instant::compareTo).map(t -> Duration.between(onset, t)).orElse(null);
        Map<String, Instant> lastHeld = new TreeMap<>();
        for (Alert a : result.alerts()) {
            if (a.getStatus() == AlertStatus.resolved) {
                lastHeld.merge(a.getDedupKey(), Instant.parse(a.getDetails().get("last_held_at")),
                        (x, y) -> x.isAfter(y) ? x : y);
            }
        }
        Duration afterRecovery = Duration.ZERO;
        for (Incident i : pages) {
            if (i.getChange() != IncidentChange.resolved) {
                continue;
            }
            Instant recovery = i.getMembers().stream().map(IncidentMember::getDedupKey).map(lastHeld::get)
                    .filter(java.util.Objects::nonNull).max(Instant::compareTo).orElse(i.getEventTime());
            Duration d = Duration.between(recovery, i.getEventTime());
            afterRecovery = d.compareTo(afterRecovery) > 0 ? d : afterRecovery;
        }
        Map<String, Instant> firstAlert = new TreeMap<>();
        result.alerts().stream().filter(a -> a.getStatus() == AlertStatus.firing)
                .forEach(a -> firstAlert.merge(io.hcwatch.incident.IncidentScope.of(a).key(), a.getEventTime(),
                        (x, y) -> x.isBefore(y) ? x : y));
        Map<String, Instant> firstPageOf = new TreeMap<>();
        pages.forEach(i -> firstPageOf.merge(i.getIncidentKey(), i.getEventTime(), (x, y) -> x.isBefore(y) ? x : y));
        Set<String> late = firstAlert.entrySet().stream()
                .filter(e -> !firstPageOf.containsKey(e.getKey()) || firstPageOf.get(e.getKey()).isAfter(e.getValue()))
                .map(Map.Entry::getKey).collect(Collectors.toCollection(java.util.TreeSet::new));
        Map<String, AlertStatus> lastOfAlert = new TreeMap<>();
        Map<String, String> scopeOfAlert = new TreeMap<>();
        for (Alert a : result.alerts()) {
            lastOfAlert.put(a.getDedupKey(), a.getStatus());
            scopeOfAlert.put(a.getDedupKey(), io.hcwatch.incident.IncidentScope.of(a).key());
        }
        Map<String, Boolean> allResolved = new TreeMap<>();
        lastOfAlert.forEach((k, st) -> allResolved.merge(scopeOfAlert.get(k), st == AlertStatus.resolved, Boolean::logicalAnd));
        Map<String, IncidentChange> lastPage = new TreeMap<>();
        pages.forEach(i -> lastPage.put(i.getIncidentKey(), i.getChange()));
        Set<String> leftOpen = allResolved.entrySet().stream()
                .filter(e -> e.getValue() && lastPage.get(e.getKey()) != IncidentChange.resolved)
                .map(Map.Entry::getKey).collect(Collectors.toCollection(java.util.TreeSet::new));
        return new PagerDutyOutcome(perIncident.size(), pages.size(),
                (int) pages.stream().map(Incident::getIncidentKey).distinct().count(),
                perIncident.values().stream().mapToInt(Long::intValue).max().orElse(0), firstPage, resolved, afterRecovery, late,
                leftOpen);
    }

    /** One row of the scenario tables: incidents, events, first page and resolve after the onset. */
    String row(String scenario) {
        return String.format("| `%s` | %d | %d | %s | %s | %s |", scenario, incidents, events, seconds(firstPage),
                seconds(resolved), seconds(resolveAfterRecovery));
    }

    private static String seconds(Duration d) {
        if (d == null) {
            return "—";
        }
        long s = d.toSeconds();
        return (s < 0 ? "-" : "+") + (Math.abs(s) >= 60 ? Math.abs(s) / 60 + "m" + String.format("%02d", Math.abs(s) % 60) + "s"
                : Math.abs(s) + "s");
    }
}
