package io.hcwatch.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import java.time.Instant;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class EnvelopeSerdeTest {

    private final EnvelopeSerde serde = new EnvelopeSerde();

    private static HealthCheckResult check(String target) {
        return HealthCheckResult.newBuilder().setTs(Instant.parse("2026-03-03T14:32:45.120Z")).setTargetGroup("prod-web-tg")
                .setTarget(target).setOutcome(CheckOutcome.timeout).setLatencyMs(2_041).build();
    }

    @Test
    void aRecordComesBackWithItsKindAndUpstream() {
        Envelope back = serde.deserialize("fleet", serde.serialize("fleet", Envelope.of(check("i-0abc0003"), "health-1")));
        assertThat(back.kind()).isEqualTo(Envelope.Kind.HEALTH_CHECK);
        assertThat(back.upstream()).isEqualTo("health-1");
        assertThat(back.record()).isEqualTo(check("i-0abc0003"));
        assertThat(serde.deserialize("fleet", serde.serialize("fleet", Envelope.of(check("x")))).upstream()).isNull();
    }

    @Test
    void aWriteThatFailsHalfwayLeavesNothingBehindForTheNext() {
        byte[] clean = new EnvelopeSerde().serialize("fleet", Envelope.of(check("i-0abc0003"), "health-1"));
        HealthCheckResult broken = check("i-0abc0003");
        broken.setAz("us-east-1a");
        broken.setTarget(null); // fails after the fields before it are in the encoder's buffer
        assertThatThrownBy(() -> serde.serialize("fleet", Envelope.of(broken, "health-1")))
                .isInstanceOf(SerializationException.class);
        assertThat(serde.serialize("fleet", Envelope.of(check("i-0abc0003"), "health-1"))).isEqualTo(clean);
    }
}
