package io.hcwatch.incident;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.AlertScope;
import io.hcwatch.avro.v1.Severity;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class IncidentScopeTest {

    static Stream<Arguments> alertsAndTheirIncidentKeys() {
        return Stream.of(
                Arguments.of(Alerts.fleet("correlated_failure", "web-tg", null, Severity.critical, 0, Map.of()), "target_group/web-tg"),
                Arguments.of(Alerts.fleet("dns_failover", "web-tg", "us-east-1a", Severity.warning, 0, Map.of()), "target_group/web-tg"),
                Arguments.of(Alerts.alert("gray_failure/web-tg/target/i-1", "gray_failure", Severity.warning, 0,
                        AlertScope.newBuilder().setTargetGroup("web-tg").setTarget("i-1").build(), Map.of()), "target_group/web-tg"),
                Arguments.of(Alerts.slots("lb1", "hc-ping", Severity.critical, 0), "frontend/hc-ping"),
                Arguments.of(Alerts.slots("lb2", "hc-ping", Severity.critical, 0), "frontend/hc-ping"),
                Arguments.of(Alerts.holder("lb1", "hc-ping", "203.0.113.7", 0), "frontend/hc-ping"),
                Arguments.of(Alerts.flood("hc-ping", "2001:db8:1:2::/64", 0), "frontend/hc-ping"),
                Arguments.of(Alerts.alert("socket_slot_exhaustion/lb1/process", "socket_slot_exhaustion", Severity.critical, 0,
                        AlertScope.newBuilder().setHost("lb1").build(), Map.of()), "host/lb1"),
                Arguments.of(Alerts.alert("client_flood/app/web/1/client:203.0.113.7", "client_flood", Severity.error, 0,
                        AlertScope.newBuilder().setLb("app/web/1").setClient("203.0.113.7").build(), Map.of()), "lb/app/web/1"),
                Arguments.of(Alerts.alert("telemetry_gap/haproxy/lb2", "telemetry_gap", Severity.error, 0,
                        AlertScope.newBuilder().setHost("lb2").build(), Map.of()), "feed/haproxy/lb2"));
    }

    @ParameterizedTest
    @MethodSource("alertsAndTheirIncidentKeys")
    void anAlertBelongsToTheIncidentOfItsScope(io.hcwatch.avro.v1.Alert alert, String key) {
        assertThat(IncidentScope.of(alert).key()).isEqualTo(key);
    }
}
