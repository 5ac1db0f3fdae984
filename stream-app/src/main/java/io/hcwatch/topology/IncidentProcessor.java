package io.hcwatch.topology;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.Incident;
import io.hcwatch.incident.IncidentBook;
import io.hcwatch.incident.IncidentScope;
import io.hcwatch.topology.state.ObjectStore;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Keeps one {@link IncidentBook} per incident key in a write-behind store and sends each page it
 * decides on, keyed by incident key, at the event time of the member alert that made it. Its input is
 * the alerts stream re-keyed by incident key, so every member of one incident reaches one task.
 */
public final class IncidentProcessor implements Processor<String, Alert, String, Incident> {

    public static final String STORE = "incident-state";

    private ProcessorContext<String, Incident> context;
    private ObjectStore<IncidentBook> store;

    @Override
    public void init(ProcessorContext<String, Incident> context) {
        this.context = context;
        this.store = context.getStateStore(STORE);
    }

    @Override
    public void process(Record<String, Alert> record) {
        Alert alert = record.value();
        if (alert == null) {
            return;
        }
        IncidentScope scope = IncidentScope.of(alert);
        IncidentBook book = store.getForUpdate(scope.key(), k -> new IncidentBook(scope));
        book.apply(alert).ifPresent(page -> context.forward(
                new Record<>(page.getIncidentKey(), page, page.getEventTime().toEpochMilli())));
    }
}
