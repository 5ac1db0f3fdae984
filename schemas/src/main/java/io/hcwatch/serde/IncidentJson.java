package io.hcwatch.serde;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.hcwatch.avro.v1.Incident;
import io.hcwatch.avro.v1.IncidentMember;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/**
 * The JSON form of an {@link Incident} page (docs/contract.md, "Incidents"), as {@code replay --incidents}
 * and the stdout sink print it: one object per line, fields in schema order, timestamps ISO-8601 UTC,
 * members in the order they first fired, evidence sorted by key so the same page prints the same line.
 */
public final class IncidentJson {

    private static final JsonFactory FACTORY = new JsonFactory();

    private IncidentJson() {
    }

    /** One line of JSON, without a line terminator. */
    public static String toJson(Incident incident) {
        StringWriter out = new StringWriter(1024);
        try (JsonGenerator json = FACTORY.createGenerator(out)) {
            json.writeStartObject();
            json.writeStringField("incident_id", incident.getIncidentId());
            json.writeStringField("incident_key", incident.getIncidentKey());
            json.writeStringField("change", incident.getChange().name());
            json.writeStringField("reason", incident.getReason());
            json.writeNumberField("updates", incident.getUpdates());
            json.writeStringField("severity", incident.getSeverity());
            writeInstant(json, "event_time", incident.getEventTime());
            writeInstant(json, "opened_at", incident.getOpenedAt());
            json.writeStringField("scope_kind", incident.getScopeKind());
            json.writeStringField("scope_name", incident.getScopeName());
            json.writeStringField("headline_type", incident.getHeadlineType());
            json.writeStringField("headline_key", incident.getHeadlineKey());
            json.writeStringField("summary", incident.getSummary());
            json.writeArrayFieldStart("members");
            for (IncidentMember m : incident.getMembers()) {
                json.writeStartObject();
                json.writeStringField("dedup_key", m.getDedupKey());
                json.writeStringField("type", m.getType());
                json.writeStringField("role", m.getRole());
                json.writeStringField("severity", m.getSeverity());
                writeInstant(json, "first_fired", m.getFirstFired());
                writeInstant(json, "resolved", m.getResolved());
                json.writeNumberField("episodes", m.getEpisodes());
                json.writeStringField("summary", m.getSummary());
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeObjectFieldStart("evidence");
            for (Map.Entry<String, String> e : new TreeMap<>(incident.getEvidence()).entrySet()) {
                json.writeStringField(e.getKey(), e.getValue());
            }
            json.writeEndObject();
            json.writeStringField("runbook_url", incident.getRunbookUrl());
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("could not write incident " + incident.getIncidentKey() + " as JSON", e);
        }
        return out.toString();
    }

    private static void writeInstant(JsonGenerator json, String field, Instant value) throws IOException {
        json.writeStringField(field, value == null ? null : value.toString());
    }
}
