package io.hcwatch.topology;

import static io.hcwatch.topology.IngestRecords.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hcwatch.avro.internal.ClientTraffic;
import io.hcwatch.input.ClientSummary;
import io.hcwatch.input.Check;
import io.hcwatch.input.FleetInput;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a monitor's repartition topic delivers is taken only if it is a kind that monitor takes in. */
class MonitorKindTest {

    private final MonitorKind<Object, FleetInput> fleet = new MonitorKind<>("fleet", "fleet-state", FleetInput.class, null,
            (key, m) -> { });

    @Test
    void aKindTheMonitorTakesIsTakenAsItIs() {
        Check check = IngestRecords.check("tg-a", "i-1", T0);
        assertThat(fleet.taken(check)).isSameAs(check);
    }

    @Test
    void aKindForAnotherMonitorIsRefusedNamingBoth() {
        ClientSummary clients = new ClientSummary(new ClientTraffic("alb", "app/x", null, T0, 1L, 0L, List.of(), 0L, List.of(), 0L));
        assertThatThrownBy(() -> fleet.taken(clients)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the fleet monitor cannot take ClientSummary");
    }
}
