package io.hcwatch.deadletter;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.registry.InMemorySchemaRegistry;
import io.hcwatch.serde.SpecificAvroSerializer;
import java.time.Instant;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Dead letters cut to a dead-letter topic's record size limit, measured by what the registry
 * serializer actually writes for them (plus the room a record takes besides its value).
 */
class DeadLetterFittingTest {

    private final InMemorySchemaRegistry registry = InMemorySchemaRegistry.scope("dead-letter-fitting-" + System.nanoTime());
    private final SpecificAvroSerializer<DeadLetter> serializer = new SpecificAvroSerializer<>(registry);

    private static DeadLetter letter(byte[] raw, String stack) {
        DeadLetter.Builder b = DeadLetter.newBuilder().setSource("haproxy").setTopic("haproxy-logs").setPartition(0).setOffset(7L)
                .setReason("bad_utf8").setError("not UTF-8 at byte 0").setDeadLetteredAt(Instant.parse("2026-12-06T05:00:00Z"))
                .setExceptionStack(stack);
        return DeadLetterBounds.withRaw(b, raw).build();
    }

    private static byte[] random(int size) {
        byte[] bytes = new byte[size];
        new Random(7).nextBytes(bytes);
        return bytes;
    }

    private int onTheWire(DeadLetter letter) {
        return serializer.serialize("telemetry-dlq", letter).length + DeadLetterBounds.RECORD_OVERHEAD;
    }

    @Test
    void underKafkasDefaultLimitEveryBoundedLetterIsLeftAsItIs() {
        DeadLetter big = letter(random(1_000_000), "at x\n".repeat(3_200));
        assertThat(big.getRaw().remaining()).isEqualTo(DeadLetterBounds.MAX_RAW_BYTES);
        assertThat(DeadLetterBounds.fitting(big, 1024 * 1024)).isSameAs(big);
    }

    @Test
    void aTopicTakingLessGetsTheFirstBytesOfRawThatFitWithTheWholeSizeStillSaid() {
        byte[] raw = random(300_000);
        DeadLetter big = letter(raw, "at x\n".repeat(100));
        int limit = 64 * 1024;

        DeadLetter cut = DeadLetterBounds.fitting(big, limit);

        assertThat(onTheWire(cut)).isLessThanOrEqualTo(limit).isGreaterThan(limit - 64);
        assertThat(cut.getRawSize()).isEqualTo(300_000);
        byte[] kept = new byte[cut.getRaw().remaining()];
        cut.getRaw().duplicate().get(kept);
        assertThat(kept).isEqualTo(Arrays.copyOf(raw, kept.length));
        assertThat(cut.getExceptionStack()).isEqualTo(big.getExceptionStack());
    }

    /** The smallest limit allowed, and a letter whose text alone is over it: raw goes, the stack is cut. */
    @Test
    void atTheSmallestLimitALetterOfLongTextsLosesItsRawThenItsStackTail() {
        String stack = "at ünïcödé€\n".repeat(16_000 / 12);
        DeadLetter big = DeadLetter.newBuilder(letter(random(100_000), stack))
                .setError("€".repeat(DeadLetterBounds.MAX_TEXT_CHARS)).setExceptionMessage("€".repeat(2_000)).build();
        int limit = DeadLetterBounds.MIN_RECORD_BYTES;
        assertThat(onTheWire(big)).isGreaterThan(limit);

        DeadLetter cut = DeadLetterBounds.fitting(big, limit);

        assertThat(onTheWire(cut)).isLessThanOrEqualTo(limit);
        assertThat(cut.getRaw() == null ? 0 : cut.getRaw().remaining()).isLessThan(100_000);
        assertThat(cut.getRawSize()).isEqualTo(100_000);
        assertThat(cut.getError()).isEqualTo(big.getError());
    }

}
