package io.hcwatch.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.input.Decoded;
import io.hcwatch.parse.ParseResult;
import io.hcwatch.topology.Decoder;
import io.hcwatch.topology.Decoders;
import io.hcwatch.topology.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.junit.jupiter.api.Test;

class QuietInputsTest {

    private static final long AT = Instant.parse("2026-03-03T14:40:00Z").toEpochMilli();

    /** A line the ingest rejects advances no partition's progress: the monitors would wait for it after all. */
    @Test
    void everyLineDecodesAtItsTime() {
        Map<io.hcwatch.topology.Source, Decoder> decoders = Decoders.standard(Topics.defaults(),
                Map.of("schema.registry.url", "mock://quiet-inputs"), Clock.fixed(Instant.ofEpochMilli(AT), ZoneOffset.UTC));
        List<Telemetry> lines = QuietInputs.at(AT, 3);
        assertThat(lines).hasSize(9).allSatisfy(t -> {
            ParseResult<? extends Decoded> result = decoders.get(t.source()).decode(t.value());
            assertThat(result).as(new String(t.value(), StandardCharsets.UTF_8)).isInstanceOf(ParseResult.Ok.class);
            assertThat(((ParseResult.Ok<? extends Decoded>) result).value().eventTime()).isEqualTo(AT);
        });
    }

    @Test
    void eachSourceHasALineOnEveryPartition() {
        Map<io.hcwatch.topology.Source, List<Integer>> partitions = QuietInputs.at(AT, 3).stream().collect(Collectors.groupingBy(
                Telemetry::source, Collectors.mapping(t -> BuiltInPartitioner.partitionForKey(t.key().getBytes(StandardCharsets.UTF_8), 3),
                        Collectors.toList())));
        assertThat(partitions).hasSize(3).allSatisfy((source, ps) -> assertThat(ps).containsExactlyInAnyOrder(0, 1, 2));
    }
}
