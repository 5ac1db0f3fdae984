package io.hcwatch.incident;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertScope;
import io.hcwatch.avro.v1.AlertStatus;
import io.hcwatch.avro.v1.Severity;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** Member alerts for incident tests, written as the monitors write them (dedup_key, scope and details of docs/contract.md). */
final class Alerts {

    static final Instant T0 = Instant.parse("2026-03-03T14:30:00Z");

    private Alerts() {
    }

    static Alert fleet(String type, String tg, String zone, Severity severity, int atSeconds, Map<String, String> details) {
        String key = type + "/" + tg + (zone == null ? "" : "/" + zone);
        return alert(key, type, severity, atSeconds, AlertScope.newBuilder().setLb("app/web/1").setTargetGroup(tg).setZone(zone).build(),
                details);
    }

    static Alert slots(String host, String frontend, Severity severity, int atSeconds) {
        return alert("socket_slot_exhaustion/" + host + "/" + frontend, "socket_slot_exhaustion", severity, atSeconds,
                AlertScope.newBuilder().setHost(host).setFrontend(frontend).build(), Map.of("slot_holders", "10.0.0.1=1%"));
    }

    /** A client holding a frontend's slots (SlotHolderDetector), named per host. */
    static Alert holder(String host, String frontend, String client, int atSeconds) {
        return alert("client_flood/" + host + "/" + frontend + "/slots:" + client, "client_flood", Severity.error, atSeconds,
                AlertScope.newBuilder().setHost(host).setFrontend(frontend).setClient(client).build(),
                Map.of("reason", "slots", "slot_holders", client + "=98%"));
    }

    /** A request-rate flood summed over a frontend's hosts (ClientFloodDetector): no host in its scope. */
    static Alert flood(String frontend, String client, int atSeconds) {
        return alert("client_flood/" + frontend + "/client:" + client, "client_flood", Severity.error, atSeconds,
                AlertScope.newBuilder().setFrontend(frontend).setClient(client).build(), Map.of());
    }

    static Alert alert(String key, String type, Severity severity, int atSeconds, AlertScope scope, Map<String, String> details) {
        return Alert.newBuilder()
                .setAlertId("id-" + key)
                .setDedupKey(key)
                .setType(type)
                .setSeverity(severity)
                .setStatus(AlertStatus.firing)
                .setEventTime(T0.plusSeconds(atSeconds))
                .setWindowStart(T0.plusSeconds(atSeconds))
                .setWindowEnd(T0.plusSeconds(atSeconds))
                .setScope(scope)
                .setSummary(type + " on " + key)
                .setDetails(new LinkedHashMap<>(details))
                .setRunbookUrl("runbooks/" + type.replace('_', '-') + ".md")
                .build();
    }

    /** The same episode, resolved at {@code atSeconds}. */
    static Alert resolved(Alert firing, int atSeconds) {
        return Alert.newBuilder(firing).setStatus(AlertStatus.resolved).setEventTime(T0.plusSeconds(atSeconds))
                .setSummary("resolved: " + firing.getSummary()).build();
    }

    /** The next episode of the same dedup_key (a new alert id), firing at {@code atSeconds}. */
    static Alert nextEpisode(Alert firing, int episode, int atSeconds) {
        return Alert.newBuilder(firing).setAlertId(firing.getAlertId() + "#" + episode).setEventTime(T0.plusSeconds(atSeconds)).build();
    }

    static Alert at(Alert alert, Severity severity, int atSeconds) {
        return Alert.newBuilder(alert).setSeverity(severity).setEventTime(T0.plusSeconds(atSeconds)).build();
    }
}
