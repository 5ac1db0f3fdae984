package io.hcwatch.it;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertStatus;
import io.hcwatch.avro.v1.Incident;
import io.hcwatch.avro.v1.IncidentChange;
import io.hcwatch.avro.v1.IncidentMember;
import io.hcwatch.incident.IncidentScope;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** What reached the incidents topic, in a form that a live run and replay of the same input must agree on. */
final class IncidentOutcomes {

    private IncidentOutcomes() {
    }

    /**
     * "incident:&lt;key&gt;" -> incidents opened, the members of the last, its headline and whether it ended
     * resolved. Not the updates: which severity step an alert passed through depends on how partitions
     * interleaved (see ReliabilityRuns.summarize), and an update follows it.
     */
    static Map<String, List<String>> summarize(List<Incident> pages) {
        Map<String, Set<String>> ids = new TreeMap<>();
        Map<String, Incident> last = new TreeMap<>();
        for (Incident i : pages) {
            ids.computeIfAbsent(i.getIncidentKey(), k -> new TreeSet<>()).add(i.getIncidentId());
            last.put(i.getIncidentKey(), i);
        }
        Map<String, List<String>> out = new TreeMap<>();
        last.forEach((key, i) -> out.put("incident:" + key, List.of("incidents:" + ids.get(key).size(),
                "members:" + i.getMembers().stream().map(IncidentMember::getDedupKey).sorted().toList(),
                "headline:" + i.getHeadlineKey(), "ends resolved:" + (i.getChange() == IncidentChange.resolved))));
        return out;
    }

    /**
     * Whether the incidents have caught up with the alerts: an incident key whose members all ended
     * resolved has a resolve as its last page, any other has a page. Incidents are one hop behind
     * the alerts (a repartition), so a run waits for both.
     */
    static boolean caughtUp(List<Alert> alerts, List<Incident> pages) {
        Map<String, AlertStatus> lastByAlert = new HashMap<>();
        Map<String, String> scopeOf = new HashMap<>();
        for (Alert a : alerts) {
            lastByAlert.put(a.getDedupKey(), a.getStatus());
            scopeOf.put(a.getDedupKey(), IncidentScope.of(a).key());
        }
        Map<String, Boolean> allResolved = new HashMap<>();
        lastByAlert.forEach((key, status) -> allResolved.merge(scopeOf.get(key), status == AlertStatus.resolved, Boolean::logicalAnd));
        Map<String, IncidentChange> lastPage = new HashMap<>();
        pages.forEach(i -> lastPage.put(i.getIncidentKey(), i.getChange()));
        return allResolved.entrySet().stream().allMatch(e -> lastPage.containsKey(e.getKey())
                && (!e.getValue() || lastPage.get(e.getKey()) == IncidentChange.resolved));
    }
}
