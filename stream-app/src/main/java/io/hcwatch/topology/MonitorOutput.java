package io.hcwatch.topology;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.DeadLetter;
import java.util.List;

/**
 * What a monitor sends on: an alert for the alerts topic, or the dead letter of a record or key it
 * failed on. The topology takes each kind out of the monitors' merged stream with
 * {@code flatMapValues}, so each kind says what it holds of each (a kind added here must answer both).
 */
public sealed interface MonitorOutput {

    /** The alert this output is, or none. */
    List<Alert> alerts();

    /** The dead letter this output is, or none. */
    List<DeadLetter> deadLetters();

    record Raised(Alert alert) implements MonitorOutput {
        @Override
        public List<Alert> alerts() {
            return List.of(alert);
        }

        @Override
        public List<DeadLetter> deadLetters() {
            return List.of();
        }
    }

    record Failed(DeadLetter letter) implements MonitorOutput {
        @Override
        public List<Alert> alerts() {
            return List.of();
        }

        @Override
        public List<DeadLetter> deadLetters() {
            return List.of(letter);
        }
    }
}
