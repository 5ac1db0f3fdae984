package io.hcwatch.demo;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertStatus;
import io.hcwatch.serde.AlertJson;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the alert sink's stdout sink writes, read back: each JSON line becomes an {@link Alert},
 * shown on the console and kept for the summary. The demo thereby shows exactly what went through
 * Kafka and the sink, not what the stream app computed.
 */
final class AlertFeed extends OutputStream {

    private final Console console;
    private final long onsetMillis;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(1024);
    private final List<Alert> alerts = new ArrayList<>();
    private final Map<String, String> severityById = new HashMap<>();
    private long lastAt = System.nanoTime();

    AlertFeed(Console console, long onsetMillis) {
        this.console = console;
        this.onsetMillis = onsetMillis;
    }

    PrintStream stream() {
        return new PrintStream(this, true, StandardCharsets.UTF_8);
    }

    @Override
    public synchronized void write(int b) {
        if (b == '\n') {
            String text = line.toString(StandardCharsets.UTF_8).trim();
            line.reset();
            if (!text.isEmpty()) {
                received(text);
            }
        } else {
            line.write(b);
        }
    }

    private void received(String json) {
        Alert a;
        try {
            a = AlertJson.fromJson(json);
        } catch (IllegalArgumentException e) {
            console.note("  (unreadable alert line: " + e.getMessage() + ")");
            return;
        }
        alerts.add(a);
        lastAt = System.nanoTime();
        String before = severityById.put(a.getAlertId(), a.getSeverity().name());
        String change = null;
        if (a.getStatus() == AlertStatus.firing && before != null) {
            change = before.equals(a.getSeverity().name()) ? "again"
                    : a.getSeverity().ordinal() < io.hcwatch.avro.v1.Severity.valueOf(before).ordinal() ? "▲" : "▼";
        }
        console.alert(a, Duration.ofMillis(a.getEventTime().toEpochMilli() - onsetMillis), change);
    }

    synchronized List<Alert> alerts() {
        return List.copyOf(alerts);
    }

    /** Nanoseconds (System.nanoTime) of the last alert, or of the feed's creation. */
    synchronized long lastAlertAt() {
        return lastAt;
    }
}
