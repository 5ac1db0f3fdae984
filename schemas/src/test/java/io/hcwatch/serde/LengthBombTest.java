package io.hcwatch.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertScope;
import io.hcwatch.avro.v1.AlertStatus;
import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.avro.v1.HaproxyStats;
import io.hcwatch.avro.v1.Severity;
import io.hcwatch.registry.InMemorySchemaRegistry;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

/**
 * Records that claim a string, bytes or collection far larger than themselves: Avro's decoder
 * allocates what they claim, so the oracle is the heap the decoding thread allocates (the JVM's
 * own count), not anything the deserializer says about itself.
 */
class LengthBombTest {

    private static final long CLAIM = 200_000_000;
    private static final long ALLOWANCE = 4_000_000;

    private final InMemorySchemaRegistry registry = InMemorySchemaRegistry.scope("length-bomb-" + System.nanoTime());

    @Test
    void anAlertClaimingA200MbAlertIdIsRefusedWithoutAllocatingIt() {
        int id = registry.register("alerts-value", Alert.getClassSchema());
        byte[] bomb = framed(id, zigzag(CLAIM), new byte[] {'x', 'y'});

        assertRefusedCheaply(Alert.class, bomb, "string of " + CLAIM + " bytes");
    }

    @Test
    void aDeadLetterClaimingHugeRawBytesIsRefusedWithoutAllocatingThem() throws Exception {
        int id = registry.register("dlq-value", DeadLetter.getClassSchema());
        ByteArrayOutputStream avro = new ByteArrayOutputStream();
        avro.write(zigzag(3));
        avro.write("alb".getBytes());
        avro.write(zigzag(0)); // topic: null
        avro.write(zigzag(0)); // partition: null
        avro.write(zigzag(0)); // offset: null
        avro.write(zigzag(0)); // input_timestamp: null
        avro.write(zigzag(1));
        avro.write('r');
        avro.write(zigzag(1));
        avro.write('e');
        avro.write(zigzag(1)); // raw: bytes
        avro.write(zigzag(CLAIM));

        assertRefusedCheaply(DeadLetter.class, framed(id, avro.toByteArray()), "bytes of " + CLAIM + " bytes");
    }

    @Test
    void anAlertClaimingAHugeDetailsMapIsRefusedWithoutAllocatingIt() throws Exception {
        int id = registry.register("alerts-value", Alert.getClassSchema());
        byte[] honest = new SpecificAvroSerializer<Alert>(registry).serialize("alerts", alert(Map.of()));
        // An alert without details ends: empty details map (one 0 byte), runbook_url null (one 0 byte).
        ByteArrayOutputStream bomb = new ByteArrayOutputStream();
        bomb.write(honest, 0, honest.length - 2);
        bomb.write(zigzag(CLAIM));
        bomb.write(zigzag(1));
        bomb.write('k');

        assertRefusedCheaply(Alert.class, bomb.toByteArray(), "map block of " + CLAIM + " items");
    }

    @Test
    void haproxyStatsClaimingAHugeArrayIsRefusedWithoutAllocatingIt() throws Exception {
        int id = registry.register("haproxy-stats-value", HaproxyStats.getClassSchema());
        ByteArrayOutputStream avro = new ByteArrayOutputStream();
        // the smallest honest value of every field before the frontends array, then the array's first block count
        for (org.apache.avro.Schema.Field field : HaproxyStats.getClassSchema().getFields()) {
            if (field.name().equals("frontends")) {
                break;
            }
            switch (field.schema().getType()) {
                case UNION, BOOLEAN -> avro.write(0); // the null branch; false
                case LONG -> avro.write(zigzag(1_772_548_365_000L));
                case STRING -> avro.write(new byte[] {2, 'h'});
                default -> throw new AssertionError(field.name() + " is a " + field.schema().getType() + ": extend this test");
            }
        }
        avro.write(zigzag(CLAIM));

        assertRefusedCheaply(HaproxyStats.class, framed(id, avro.toByteArray()), "array block of " + CLAIM + " items");
    }

    @Test
    void honestRecordsStillDecodeToWhatWasWritten() {
        registry.register("alerts-value", Alert.getClassSchema());
        Alert alert = alert(Map.of("hosts", "web-1,web-2", "window", "60s"));
        byte[] bytes = new SpecificAvroSerializer<Alert>(registry).serialize("alerts", alert);

        assertThat(new SpecificAvroDeserializer<>(Alert.class, registry).deserialize("alerts", bytes)).isEqualTo(alert);
    }

    @Test
    void aDeadLetterWithRawBytesStillDecodes() {
        DeadLetter letter = DeadLetter.newBuilder().setSource("alb").setReason("bad_avro").setError("e")
                .setRaw(ByteBuffer.wrap(new byte[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}))
                .setDeadLetteredAt(Instant.parse("2026-03-03T14:32:45Z")).build();
        byte[] bytes = new SpecificAvroSerializer<DeadLetter>(registry).serialize("dlq", letter);

        assertThat(new SpecificAvroDeserializer<>(DeadLetter.class, registry).deserialize("dlq", bytes)).isEqualTo(letter);
    }

    private <T extends SpecificRecord> void assertRefusedCheaply(Class<T> type, byte[] bomb, String claim) {
        SpecificAvroDeserializer<T> deserializer = new SpecificAvroDeserializer<>(type, registry);
        try {
            deserializer.deserialize("warm-up", bomb); // loads the classes and the writer schema outside the count
        } catch (SerializationException | OutOfMemoryError expected) {
            // the measured call below is the one that must refuse it
        }
        long[] allocated = new long[1];
        Throwable[] thrown = new Throwable[1];
        allocated[0] = allocatedBy(() -> {
            try {
                deserializer.deserialize("topic", bomb);
            } catch (SerializationException | OutOfMemoryError e) {
                thrown[0] = e;
            }
            return null;
        });
        assertThat(allocated[0]).as("bytes allocated decoding a %d-byte record", bomb.length).isLessThan(ALLOWANCE);
        assertThat(thrown[0]).isInstanceOf(SerializationException.class);
        assertThat(thrown[0].getMessage()).contains(claim);
        assertThatThrownBy(() -> deserializer.deserialize("topic", bomb)).isInstanceOf(SerializationException.class);
    }

    private static long allocatedBy(Supplier<Void> work) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        work.get();
        return threads.getCurrentThreadAllocatedBytes() - before;
    }

    private static Alert alert(Map<String, String> details) {
        return Alert.newBuilder().setAlertId("a-1").setDedupKey("d-1").setType("correlated_failure")
                .setSeverity(Severity.critical).setStatus(AlertStatus.firing)
                .setEventTime(Instant.parse("2026-03-03T14:32:45Z"))
                .setScope(AlertScope.newBuilder().build())
                .setSummary("s").setDetails(Map.copyOf(details)).build();
    }

    private static byte[] framed(int id, byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(WireFormat.MAGIC_BYTE);
        out.writeBytes(ByteBuffer.allocate(4).putInt(id).array());
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    private static byte[] zigzag(long value) {
        long raw = (value << 1) ^ (value >> 63);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while ((raw & ~0x7fL) != 0) {
            out.write((int) ((raw & 0x7f) | 0x80));
            raw >>>= 7;
        }
        out.write((int) raw);
        return out.toByteArray();
    }
}
