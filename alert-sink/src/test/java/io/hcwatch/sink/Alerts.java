package io.hcwatch.sink;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertScope;
import io.hcwatch.avro.v1.AlertStatus;
import io.hcwatch.avro.v1.Severity;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** Alerts for tests, shaped like the example in docs/contract.md ("Alerts"). */
public final class Alerts {

    private Alerts() {
    }

    public static Alert.Builder correlatedFailure(String targetGroup) {
        Map<String, String> details = new LinkedHashMap<>();
        details.put("zones", "us-east-1a,us-east-1b,us-east-1c");
        details.put("failing", "11");
        details.put("registered", "18");
        return Alert.newBuilder()
                .setAlertId("a-" + targetGroup)
                .setDedupKey("correlated_failure/" + targetGroup)
                .setType("correlated_failure")
                .setSeverity(Severity.critical)
                .setStatus(AlertStatus.firing)
                .setEventTime(Instant.parse("2026-03-03T14:33:10Z"))
                .setWindowStart(Instant.parse("2026-03-03T14:32:30Z"))
                .setWindowEnd(Instant.parse("2026-03-03T14:33:10.250Z"))
                .setScope(AlertScope.newBuilder()
                        .setLb("app/prod-web/50dc6c495c0c9188")
                        .setTargetGroup(targetGroup)
                        .build())
                .setSummary("11/18 targets of " + targetGroup + " failed health checks within 40s across 3 zones (reason Target.Timeout)")
                .setDetails(details)
                .setRunbookUrl("https://runbooks.example/runbooks/correlated-failure.md");
    }

    public static Alert firing(String targetGroup) {
        return correlatedFailure(targetGroup).build();
    }

    public static Alert resolved(String targetGroup) {
        return correlatedFailure(targetGroup).setStatus(AlertStatus.resolved).build();
    }
}
