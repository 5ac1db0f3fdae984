package io.hcwatch.incident;

import static io.hcwatch.incident.Alerts.fleet;
import static io.hcwatch.incident.Alerts.resolved;
import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.Severity;
import io.hcwatch.topology.TopologyFactory;
import io.hcwatch.topology.state.StateCodec;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A book read back from its store after a restart goes on paging exactly as the one that stayed in memory. */
class IncidentBookStorageTest {

    private final StateCodec<IncidentBook> codec = TopologyFactory.incidentCodec();

    @Test
    void aStoredOpenIncidentResolvesAsTheOneKeptInMemory() {
        Alert correlated = fleet("correlated_failure", "web", null, Severity.critical, 10,
                Map.of("diagnosis", "timeout_below_latency"));
        Alert dns = fleet("dns_failover", "web", "us-east-2a", Severity.warning, 40, Map.of());
        IncidentBook kept = new IncidentBook(IncidentScope.of(correlated));
        kept.apply(correlated);
        kept.apply(dns);

        byte[] stored = codec.encode(kept);
        IncidentBook restored = codec.decode(stored);

        assertThat(codec.encode(restored)).isEqualTo(stored);
        assertThat(restored.isOpen()).isTrue();
        assertThat(restored.apply(resolved(dns, 100))).isEqualTo(kept.apply(resolved(dns, 100)));
        assertThat(restored.apply(resolved(correlated, 200))).isEqualTo(kept.apply(resolved(correlated, 200)))
                .hasValueSatisfying(page -> assertThat(page.getChange().toString()).isEqualTo("resolved"));
        assertThat(restored.isOpen()).isFalse();
    }

    @Test
    void aFieldAddedByANewerReleaseIsIgnored() {
        Alert correlated = fleet("correlated_failure", "web", null, Severity.critical, 10, Map.of());
        IncidentBook kept = new IncidentBook(IncidentScope.of(correlated));
        kept.apply(correlated);
        String json = new String(codec.encode(kept), java.nio.charset.StandardCharsets.UTF_8);

        IncidentBook read = codec.decode(("{\"added_later\":1," + json.substring(1)).getBytes(java.nio.charset.StandardCharsets.UTF_8));

        assertThat(codec.encode(read)).isEqualTo(codec.encode(kept));
    }
}
