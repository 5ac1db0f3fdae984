package io.hcwatch.incident;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertStatus;
import java.util.Comparator;
import java.util.ArrayList;
import java.util.List;

/**
 * The causality table that orders an incident's members: the first row a member matches gives its
 * rank (lower is nearer the cause) and role. The incident's headline is its best-ranked member, so an
 * on-call engineer reads the cause first. docs/contract.md ("Incidents") shows the same table.
 */
public final class CausalRank {

    /** One row: alert type, the diagnosis it must carry (null: any), its role. */
    public record Row(String type, String diagnosis, Role role) {
        boolean matches(Alert alert) {
            return type.equals(alert.getType()) && (diagnosis == null || diagnosis.equals(alert.getDetails().get("diagnosis")));
        }
    }

    public static final List<Row> TABLE = List.of(
            new Row("health_check_config_risk", null, Role.CAUSE),
            new Row("client_flood", null, Role.CAUSE),
            new Row("correlated_failure", "shared_dependency_deep_check", Role.CAUSE),
            new Row("zonal_failure", null, Role.CAUSE),
            new Row("correlated_failure", "zonal", Role.CAUSE),
            new Row("gray_failure", null, Role.CAUSE),
            new Row("telemetry_gap", null, Role.CAUSE),
            new Row("health_latency_headroom", null, Role.MECHANISM),
            new Row("correlated_failure", null, Role.MECHANISM),
            new Row("socket_slot_exhaustion", null, Role.MECHANISM),
            new Row("replacement_churn", null, Role.MECHANISM),
            new Row("fail_open_routing", null, Role.IMPACT),
            new Row("no_healthy_targets", null, Role.IMPACT),
            new Row("dns_failover", null, Role.IMPACT));

    /**
     * The order a monitor sends alerts in: by event time, and those of one time firings first (as
     * the lifecycle makes them), cause first. The incident books take alerts in this order, and a
     * mechanism sent before the cause that fired in the same step would open its incident and page
     * it again for the cause one record later: the same second, two PagerDuty events.
     */
    public static final Comparator<Alert> ORDER = Comparator.comparing(Alert::getEventTime)
            .thenComparing(a -> a.getStatus() == AlertStatus.resolved)
            .thenComparingInt(CausalRank::rank);

    private CausalRank() {
    }

    /** The alerts in {@link #ORDER}, as a new list. */
    public static List<Alert> inOrder(List<Alert> alerts) {
        List<Alert> out = new ArrayList<>(alerts);
        out.sort(ORDER);
        return out;
    }

    /** The alert's rank: its row's index, or after every row for a type the table does not know. */
    public static int rank(Alert alert) {
        for (int i = 0; i < TABLE.size(); i++) {
            if (TABLE.get(i).matches(alert)) {
                return i;
            }
        }
        return TABLE.size();
    }

    public static Role role(int rank) {
        return rank < TABLE.size() ? TABLE.get(rank).role() : Role.IMPACT;
    }
}
