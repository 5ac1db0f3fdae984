package io.hcwatch.sink.notify;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.Incident;
import io.hcwatch.avro.v1.IncidentChange;
import io.hcwatch.avro.v1.Severity;
import java.util.Locale;

/**
 * What the sink delivers: a page of an incident (the default, from the incidents topic) or one
 * notification of an alert (deliver=alerts, from the alerts topic). Receivers that format them
 * differently take them apart with {@link Cases}, so a new kind is a compile error wherever it matters.
 */
public sealed interface Page {

    /** PagerDuty's dedup_key: the incident key, or the alert's dedup_key. */
    String dedupKey();

    /** The alert type, or the incident's headline type: a route's type and the delivery metrics' type tag. */
    String type();

    /** Whether this ends what earlier pages of the same dedup_key opened (a PagerDuty resolve). */
    boolean resolves();

    Severity severity();

    /** The target group the page is about, or null: what a route's target.group matches. */
    String targetGroup();

    <R> R accept(Cases<R> cases);

    interface Cases<R> {
        R alert(Alert alert);

        R incident(Incident incident);
    }

    static Page of(Alert alert) {
        return new OfAlert(alert);
    }

    static Page of(Incident incident) {
        return new OfIncident(incident);
    }

    record OfAlert(Alert alert) implements Page {
        @Override
        public String dedupKey() {
            return alert.getDedupKey();
        }

        @Override
        public String type() {
            return alert.getType();
        }

        @Override
        public boolean resolves() {
            return alert.getStatus() == io.hcwatch.avro.v1.AlertStatus.resolved;
        }

        @Override
        public Severity severity() {
            return alert.getSeverity();
        }

        @Override
        public String targetGroup() {
            return alert.getScope() == null ? null : alert.getScope().getTargetGroup();
        }

        @Override
        public <R> R accept(Cases<R> cases) {
            return cases.alert(alert);
        }
    }

    record OfIncident(Incident incident) implements Page {
        @Override
        public String dedupKey() {
            return incident.getIncidentKey();
        }

        @Override
        public String type() {
            return incident.getHeadlineType();
        }

        @Override
        public boolean resolves() {
            return incident.getChange() == IncidentChange.resolved;
        }

        /** An incident's severity is the text of a PagerDuty severity; anything else pages as critical rather than not at all. */
        @Override
        public Severity severity() {
            try {
                return Severity.valueOf(incident.getSeverity().toLowerCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                return Severity.critical;
            }
        }

        @Override
        public String targetGroup() {
            return incident.getScopeKind().equals("target_group") ? incident.getScopeName() : null;
        }

        @Override
        public <R> R accept(Cases<R> cases) {
            return cases.incident(incident);
        }
    }
}
