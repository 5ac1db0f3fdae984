package io.hcwatch.sink.notify.pagerduty;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertScope;
import io.hcwatch.avro.v1.Severity;
import io.hcwatch.sink.Alerts;
import io.hcwatch.sink.notify.Page;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RouterTest {

    private static final RoutingKey DEFAULT = new RoutingKey("default-key", "DEFAULT");
    private static final RoutingKey DATABASE = new RoutingKey("db-key", "DB");
    private static final RoutingKey EDGE = new RoutingKey("edge-key", "EDGE");

    private final Router router = new Router(List.of(
            Route.of("db", Set.of(), Set.of(Severity.critical), "prod-db-*", DATABASE),
            Route.of("edge", Set.of("socket_slot_exhaustion", "client_flood"), Set.of(), null, EDGE)), DEFAULT);

    private RoutingKey keyFor(Alert alert) {
        return router.keyFor(Page.of(alert));
    }

    @Test
    void theFirstMatchingRouteWins() {
        assertThat(keyFor(Alerts.correlatedFailure("prod-db-primary").build())).isEqualTo(DATABASE);
        assertThat(keyFor(Alerts.correlatedFailure("x").setType("client_flood")
                .setScope(AlertScope.newBuilder().setHost("lb1").build()).build())).isEqualTo(EDGE);
    }

    @Test
    void everyMatcherOfARouteMustHold() {
        assertThat(keyFor(Alerts.correlatedFailure("prod-db-primary").setSeverity(Severity.warning).build()))
                .as("severity does not match").isEqualTo(DEFAULT);
        assertThat(keyFor(Alerts.correlatedFailure("prod-web").build()))
                .as("target group does not match").isEqualTo(DEFAULT);
        assertThat(keyFor(Alerts.correlatedFailure("x").setScope(new AlertScope()).build()))
                .as("no target group to match").isEqualTo(DEFAULT);
    }

    @Test
    void globsMatchTheWholeNameAndTreatOtherCharactersLiterally() {
        assertThat(Route.globToRegex("prod-db-*").matcher("staging-prod-db-1").matches()).isFalse();
        assertThat(Route.globToRegex("tg.?").matcher("tg.1").matches()).isTrue();
        assertThat(Route.globToRegex("tg.?").matcher("tgx1").matches()).isFalse();
    }
}
