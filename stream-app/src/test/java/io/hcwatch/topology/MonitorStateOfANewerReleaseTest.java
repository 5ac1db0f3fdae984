package io.hcwatch.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.config.Settings;
import io.hcwatch.detect.fleet.FleetState;
import io.hcwatch.input.FleetInput;
import io.hcwatch.parse.ParseResult;
import io.hcwatch.topology.state.WriteBehindStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

/**
 * After a rollback, a target group's stored state is of a layout a newer release wrote: the fleet
 * monitor leaves it as stored, and each record that reaches that key is dead-lettered as a newer
 * release's (reason newer_version, counted in held_in state), not as a failure of this release's
 * code; every other target group, and the evaluation steps, go on.
 */
class MonitorStateOfANewerReleaseTest {

    private static final long T0 = IngestRecords.T0;
    private static final byte[] NEWER = "{\"v\":99,\"time\":{},\"state\":{},\"alerts\":{}}".getBytes(StandardCharsets.UTF_8);

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final MockProcessorContext<String, MonitorOutput> context = new MockProcessorContext<>();
    private final KeyValueStore<Bytes, byte[]> stored = inMemory(TopologyFactory.FLEET_STORE);
    private final WriteBehindStore<?> states = WriteBehindStore.over(stored, TopologyFactory.fleetCodec());

    @Test
    void recordsForAKeyOfANewerLayoutAreDeadLetteredAsANewerReleasesAndTheOtherKeysGoOn() {
        MonitorProcessor<FleetState, FleetInput> fleet = new Stages(config()).fleet();
        stored.put(Bytes.wrap("tg-newer".getBytes(StandardCharsets.UTF_8)), NEWER);
        context.setCurrentSystemTimeMs(T0);
        fleet.init(context);

        for (long t = T0; t <= T0 + 60_000; t += 10_000) {
            fleet.process(new Record<>("tg-newer", new Envelope(IngestRecords.check("tg-newer", "i-1", t), "health-0"), t));
            fleet.process(new Record<>("prod-web-tg", new Envelope(IngestRecords.check("prod-web-tg", "i-1", t), "health-0"), t));
            fleet.process(new Record<>(null, Envelope.progress("health-0", t + 1, false), t + 1));
        }

        List<DeadLetter> dead = context.forwarded().stream().map(f -> f.record().value())
                .flatMap(out -> out.deadLetters().stream()).toList();
        assertThat(dead).hasSize(7).allSatisfy(d -> {
            assertThat(d.getReason()).isEqualTo("newer_version");
            assertThat(d.getStage()).isEqualTo("monitor-fleet");
            assertThat(d.getKey()).isEqualTo("tg-newer");
            assertThat(d.getError()).startsWith("state: ").contains("layout 99");
            assertThat(d.getExceptionClass()).isNull();
            // the record the key could not take, as the repartition topic carries it
            assertThat(new EnvelopeSerde().deserialize(null, d.getRaw().array()).telemetry())
                    .isEqualTo(IngestRecords.check("tg-newer", "i-1", d.getInputTimestamp().toEpochMilli()));
        });
        assertThat(meters.find("hcwatch.newer.version").tag("stage", "monitor-fleet").tag("held_in", "state").counter().count())
                .isEqualTo(7);
        assertThat(meters.find("hcwatch.processing.errors").tag("stage", "monitor-fleet").counter().count()).isZero();

        // the other target group took its records and was stepped; the newer state is as it was stored
        states.flushCache();
        byte[] other = stored.get(Bytes.wrap("prod-web-tg".getBytes(StandardCharsets.UTF_8)));
        assertThat(TopologyFactory.fleetCodec().decode(other).time.lastStep).isEqualTo(T0 + 60_000);
        assertThat(stored.get(Bytes.wrap("tg-newer".getBytes(StandardCharsets.UTF_8)))).isEqualTo(NEWER);
    }

    private KeyValueStore<Bytes, byte[]> inMemory(String name) {
        return Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name), Serdes.Bytes(), Serdes.ByteArray())
                .withLoggingDisabled().withCachingDisabled().build();
    }

    private TopologyConfig config() {
        WriteBehindStore<?> clock = WriteBehindStore.over(inMemory(MonitorProcessor.clockStore(TopologyFactory.FLEET_STORE)),
                TopologyFactory.clockCodec());
        for (WriteBehindStore<?> store : List.of(states, clock)) {
            store.init(context.getStateStoreContext(), store);
            context.addStateStore(store);
        }
        Map<Source, Decoder> decoders = new EnumMap<>(Source.class);
        for (Source s : Source.values()) {
            decoders.put(s, raw -> ParseResult.rejected("not_json", "this test sends no input"));
        }
        return new TopologyConfig(Topics.defaults(), Settings.defaults(), decoders, Map.of("schema.registry.url", "mock://newer"),
                meters, false);
    }
}
