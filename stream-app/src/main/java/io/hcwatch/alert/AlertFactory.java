package io.hcwatch.alert;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertScope;
import io.hcwatch.avro.v1.AlertStatus;
import io.hcwatch.avro.v1.Severity;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;

/** Turns lifecycle notifications into {@code Alert} records with their runbook link. */
public final class AlertFactory {

    private final String runbookBase;

    public AlertFactory(String runbookBase) {
        this.runbookBase = runbookBase.endsWith("/") ? runbookBase : runbookBase + "/";
    }

    public Alert toAlert(Notification n) {
        return Alert.newBuilder()
                .setAlertId(n.alertId())
                .setDedupKey(n.dedupKey())
                .setType(n.type().id())
                .setSeverity(Severity.valueOf(n.severity().name().toLowerCase(Locale.ROOT)))
                .setStatus(n.firing() ? AlertStatus.firing : AlertStatus.resolved)
                .setEventTime(Instant.ofEpochMilli(n.eventTime()))
                .setWindowStart(Instant.ofEpochMilli(n.windowStart()))
                .setWindowEnd(Instant.ofEpochMilli(n.windowEnd()))
                .setScope(AlertScope.newBuilder()
                        .setLb(n.scope().lb())
                        .setTargetGroup(n.scope().targetGroup())
                        .setZone(n.scope().zone())
                        .setHost(n.scope().host())
                        .setFrontend(n.scope().frontend())
                        .setClient(n.scope().client())
                        .setTarget(n.scope().target())
                        .build())
                .setSummary(n.summary())
                .setDetails(new LinkedHashMap<>(n.details()))
                .setRunbookUrl(runbookBase + n.type().runbookFile())
                .build();
    }
}
