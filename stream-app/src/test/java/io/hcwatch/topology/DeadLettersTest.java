package io.hcwatch.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.DeadLetter;
import java.nio.ByteBuffer;
import java.time.Instant;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.junit.jupiter.api.Test;

/** An input's dead letter says where the value was read, why it was not taken, and holds its bytes. */
class DeadLettersTest {

    private record Read(String topic, int partition, long offset) implements RecordMetadata {
    }

    @Test
    void aDeadLetterCarriesItsReasonTheValueAndWhereAndWhenItWasRead() {
        byte[] raw = {'{', '"', 't', 's'};
        DeadLetter d = new DeadLetters("health").of(new Read("health-check-results", 3, 42), 1_772_548_200_000L, raw, "bad_json",
                "input held '{\"ts', expected a JSON object", 1_772_548_260_000L);
        assertThat(d.getSource()).isEqualTo("health");
        assertThat(d.getTopic()).isEqualTo("health-check-results");
        assertThat(d.getPartition()).isEqualTo(3);
        assertThat(d.getOffset()).isEqualTo(42L);
        assertThat(d.getInputTimestamp()).isEqualTo(Instant.parse("2026-03-03T14:30:00Z"));
        assertThat(d.getReason()).isEqualTo("bad_json");
        assertThat(d.getError()).isEqualTo("input held '{\"ts', expected a JSON object");
        assertThat(d.getRaw()).isEqualTo(ByteBuffer.wrap(raw));
        assertThat(d.getDeadLetteredAt()).isEqualTo(Instant.parse("2026-03-03T14:31:00Z"));
    }

    @Test
    void whatIsNotKnownIsLeftOut() {
        DeadLetter d = new DeadLetters("alb").of(null, -1, null, "empty", "the record has no value (null)", 0);
        assertThat(d.getTopic()).isNull();
        assertThat(d.getPartition()).isNull();
        assertThat(d.getOffset()).isNull();
        assertThat(d.getInputTimestamp()).isNull();
        assertThat(d.getRaw()).isNull();
    }
}
