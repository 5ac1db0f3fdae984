package io.hcwatch.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.registry.InMemorySchemaRegistry;
import io.hcwatch.serde.SpecificAvroSerializer;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A dead letter for an input as large as the broker takes (Kafka's default limit is 1 MiB, and
 * inputs may be configured larger) plus its error must itself stay under the dead-letter topic's
 * limit: before, it carried the whole input and was refused (RecordTooLargeException), which
 * replaced the stream thread, which read the same input again.
 */
class DeadLettersTest {

    private static final int KAFKA_DEFAULT_MAX_MESSAGE_BYTES = 1_048_588;

    private static byte[] input(int size) {
        byte[] raw = new byte[size];
        new Random(29).nextBytes(raw);
        return raw;
    }

    private static int serializedSize(DeadLetter letter) {
        return new SpecificAvroSerializer<DeadLetter>(new InMemorySchemaRegistry()).serialize("telemetry-dlq", letter).length;
    }

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
