package io.hcwatch.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.registry.InMemorySchemaRegistry;
import io.hcwatch.serde.SpecificAvroSerializer;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Arrays;
import java.util.Random;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.junit.jupiter.api.Test;

/** An input's dead letter says where the value was read, why it was not taken, and holds its bytes (bounded). */
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
        assertThat(d.getRawSize()).isEqualTo(raw.length);
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
        assertThat(d.getRawSize()).isNull();
    }

    private static final int KAFKA_DEFAULT_MAX_MESSAGE_BYTES = 1_048_588;

    private static byte[] input(int size) {
        byte[] raw = new byte[size];
        new Random(29).nextBytes(raw);
        return raw;
    }

    private static int serializedSize(DeadLetter letter) {
        return new SpecificAvroSerializer<DeadLetter>(new InMemorySchemaRegistry()).serialize("telemetry-dlq", letter).length;
    }

    /**
     * A dead letter for an input as large as the broker takes (Kafka's default limit is 1 MiB, and
     * inputs may be configured larger) plus its error must itself stay under the dead-letter topic's
     * limit: before, it carried the whole input and was refused (RecordTooLargeException), which
     * replaced the stream thread, which read the same input again.
     */
    @Test
    void aTwoMegabyteInputIsDeadLetteredWithItsFirstBytesAndItsSizeUnderTheTopicLimit() {
        byte[] raw = input(2_000_000);
        String error = "line is " + raw.length + " bytes: " + "x".repeat(1_000_000);

        DeadLetter letter = new DeadLetters("haproxy").of(null, 1L, raw, "line_too_long", error, 2L);

        assertThat(serializedSize(letter)).isLessThan(KAFKA_DEFAULT_MAX_MESSAGE_BYTES / 2);
        assertThat(letter.getRawSize()).isEqualTo(2_000_000);
        byte[] kept = new byte[letter.getRaw().remaining()];
        letter.getRaw().duplicate().get(kept);
        assertThat(kept).isEqualTo(Arrays.copyOf(raw, 256 * 1024));
        assertThat(letter.getError()).startsWith("line is 2000000 bytes: xxx").endsWith("... (1000023 characters)")
                .hasSize(4_000);
    }

    @Test
    void anInputUnderTheBoundIsKeptByteForByte() {
        byte[] raw = input(256 * 1024);

        DeadLetter letter = new DeadLetters("alb").of(null, 1L, raw, "field_count", "12 fields, expected 29", 2L);

        assertThat(letter.getRaw()).isEqualTo(ByteBuffer.wrap(raw));
        assertThat(letter.getRawSize()).isEqualTo(raw.length);
        assertThat(letter.getError()).isEqualTo("12 fields, expected 29");
    }
}
