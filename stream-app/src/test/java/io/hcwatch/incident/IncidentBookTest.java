package io.hcwatch.incident;

import static io.hcwatch.incident.Alerts.fleet;
import static io.hcwatch.incident.Alerts.resolved;
import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.Incident;
import io.hcwatch.avro.v1.IncidentMember;
import io.hcwatch.avro.v1.Severity;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IncidentBookTest {

    private static final Map<String, String> TIMEOUT_CUT = Map.of("diagnosis", "timeout_below_latency");

    /** Every alert through the book of its scope, as the incident processor does; the pages in order. */
    private static List<Incident> run(List<Alert> alerts) {
        Map<String, IncidentBook> books = new LinkedHashMap<>();
        List<Incident> pages = new ArrayList<>();
        for (Alert a : alerts) {
            IncidentScope scope = IncidentScope.of(a);
            books.computeIfAbsent(scope.key(), k -> new IncidentBook(scope)).apply(a).ifPresent(pages::add);
        }
        return pages;
    }

    /** A page as a line: change, why, headline type, severity, seconds after T0. */
    private static String line(Incident i) {
        return i.getChange() + " " + i.getReason() + " " + i.getHeadlineType() + " " + i.getSeverity() + " +"
                + Duration.between(Alerts.T0, i.getEventTime()).toSeconds();
    }

    private static List<String> lines(List<Incident> pages) {
        return pages.stream().map(IncidentBookTest::line).toList();
    }

    @Test
    void aTimeoutCutWithItsSecondariesIsOneIncidentPagedTwiceHeadedByTheConfigChange() {
        Alert risk = fleet("health_check_config_risk", "web", null, Severity.critical, 0, Map.of("recommended_timeout_ms", "28000"));
        Alert headroom = fleet("health_latency_headroom", "web", null, Severity.warning, 0, Map.of("recommended_timeout_ms", "28000"));
        Alert correlated = fleet("correlated_failure", "web", null, Severity.critical, 186, TIMEOUT_CUT);
        Alert dnsA = fleet("dns_failover", "web", "us-east-2a", Severity.warning, 200, Map.of());
        Alert dnsB = fleet("dns_failover", "web", "us-east-2b", Severity.warning, 210, Map.of());
        Alert churn = fleet("replacement_churn", "web", null, Severity.critical, 417, Map.of());
        List<Incident> pages = run(List.of(risk, headroom, correlated, dnsA, dnsB, resolved(dnsA, 230),
                Alerts.nextEpisode(dnsA, 2, 240), churn, resolved(risk, 900), resolved(headroom, 910), resolved(dnsB, 1000),
                resolved(Alerts.nextEpisode(dnsA, 2, 240), 1010), resolved(correlated, 1100), resolved(churn, 1200)));

        assertThat(lines(pages)).containsExactly(
                "opened opened health_check_config_risk critical +0",
                "resolved resolved health_check_config_risk critical +1200");
        Incident end = pages.get(1);
        assertThat(end.getIncidentKey()).isEqualTo("target_group/web");
        assertThat(end.getIncidentId()).isEqualTo(pages.get(0).getIncidentId());
        assertThat(end.getMembers()).extracting(IncidentMember::getDedupKey).containsExactly(
                "health_check_config_risk/web", "health_latency_headroom/web", "correlated_failure/web",
                "dns_failover/web/us-east-2a", "dns_failover/web/us-east-2b", "replacement_churn/web");
        assertThat(end.getMembers()).extracting(IncidentMember::getRole)
                .containsExactly("cause", "mechanism", "mechanism", "impact", "impact", "mechanism");
        IncidentMember flapping = end.getMembers().get(3);
        assertThat(flapping.getEpisodes()).isEqualTo(2);
        assertThat(flapping.getFirstFired()).isEqualTo(Alerts.T0.plusSeconds(200));
        assertThat(flapping.getResolved()).isEqualTo(Alerts.T0.plusSeconds(1010));
        assertThat(end.getEvidence()).containsEntry("recommended_timeout_ms", "28000")
                .containsEntry("diagnosis", "timeout_below_latency")
                .containsEntry("zones", "us-east-2a,us-east-2b")
                .containsEntry("members_firing", "0");
    }

    @Test
    void theCauseArrivingLaterTakesTheHeadlineAndPagesAnUpdate() {
        Alert correlated = fleet("correlated_failure", "db-tier", null, Severity.warning, 3, Map.of("diagnosis", "unknown"));
        Alert failOpen = fleet("fail_open_routing", "db-tier", null, Severity.critical, 20, Map.of());
        Alert shared = fleet("correlated_failure", "db-tier", null, Severity.critical, 30,
                Map.of("diagnosis", "shared_dependency_deep_check"));

        assertThat(lines(run(List.of(correlated, failOpen, shared)))).containsExactly(
                "opened opened correlated_failure warning +3",
                "updated severity correlated_failure critical +20",
                "updated headline correlated_failure critical +30");
    }

    @Test
    void theHeadlineDoesNotDependOnWhichMemberArrivedFirst() {
        Alert slots = Alerts.slots("lb1", "hc-ping", Severity.critical, 10);
        Alert flood = Alerts.flood("hc-ping", "203.0.113.7", 10);

        Incident floodFirst = run(List.of(flood, slots, resolved(flood, 400), resolved(slots, 410))).get(2);
        Incident slotsFirst = run(List.of(slots, flood, resolved(slots, 400), resolved(flood, 410))).get(2);

        assertThat(slotsFirst.getHeadlineKey()).isEqualTo(floodFirst.getHeadlineKey()).isEqualTo("client_flood/hc-ping/client:203.0.113.7");
        assertThat(slotsFirst.getSeverity()).isEqualTo(floodFirst.getSeverity()).isEqualTo("critical");
    }

    @Test
    void theSlotHolderNamedAfterThePageIsDecisiveAndPagedOnce() {
        Alert slots = Alerts.slots("lb1", "hc-ping", Severity.critical, 10);
        Alert holderOnLb1 = Alerts.holder("lb1", "hc-ping", "203.0.113.7", 70);
        Alert holderOnLb2 = Alerts.holder("lb2", "hc-ping", "203.0.113.7", 75);
        Alert ipv6 = Alerts.flood("hc-ping", "2001:db8:1:2::/64", 90);

        List<Incident> pages = run(List.of(slots, holderOnLb1, holderOnLb2, ipv6));

        assertThat(lines(pages)).containsExactly(
                "opened opened socket_slot_exhaustion critical +10",
                "updated headline client_flood critical +70",
                "updated evidence client_flood critical +90");
        assertThat(pages.get(1).getEvidence()).containsEntry("block", "203.0.113.7");
        assertThat(pages.get(2).getEvidence()).containsEntry("block", "2001:db8:1:2::/64,203.0.113.7");
    }

    @Test
    void updatesStopAtThreeAndTheTimelineStillHoldsWhatCameAfter() {
        Alert dns = fleet("dns_failover", "web", "a", Severity.info, 0, Map.of());
        Alert noHealthy = fleet("no_healthy_targets", "web", null, Severity.warning, 10, Map.of());
        Alert failOpen = fleet("fail_open_routing", "web", null, Severity.error, 20, Map.of());
        Alert churn = fleet("replacement_churn", "web", null, Severity.critical, 30, Map.of());
        Alert zonal = fleet("zonal_failure", "web", "a", Severity.critical, 40, Map.of());

        List<Incident> pages = run(List.of(dns, noHealthy, failOpen, churn, zonal, resolved(dns, 500), resolved(noHealthy, 500),
                resolved(failOpen, 500), resolved(churn, 500), resolved(zonal, 600)));

        assertThat(lines(pages)).containsExactly(
                "opened opened dns_failover info +0",
                "updated headline no_healthy_targets warning +10",
                "updated headline fail_open_routing error +20",
                "updated headline replacement_churn critical +30",
                "resolved resolved zonal_failure critical +600");
        assertThat(pages.get(4).getUpdates()).isEqualTo(3);
        assertThat(pages.get(4).getMembers()).hasSize(5);
    }

    @Test
    void itStaysOpenWhileAnyMemberFiresAndAMemberFiringAgainRejoinsIt() {
        Alert correlated = fleet("correlated_failure", "web", null, Severity.critical, 0, TIMEOUT_CUT);
        Alert churn = fleet("replacement_churn", "web", null, Severity.critical, 60, Map.of());

        List<Incident> pages = run(List.of(correlated, churn, resolved(correlated, 400),
                Alerts.nextEpisode(correlated, 2, 450), resolved(churn, 500), resolved(Alerts.nextEpisode(correlated, 2, 450), 800)));

        assertThat(lines(pages)).containsExactly(
                "opened opened correlated_failure critical +0",
                "resolved resolved correlated_failure critical +800");
        assertThat(pages.get(1).getMembers().get(0).getEpisodes()).isEqualTo(2);
    }

    @Test
    void aNewAlertAfterTheResolveOpensANewIncidentWithAnotherId() {
        Alert first = fleet("correlated_failure", "web", null, Severity.critical, 0, TIMEOUT_CUT);
        Alert again = Alerts.nextEpisode(first, 2, 3600);

        List<Incident> pages = run(List.of(first, resolved(first, 600), again));

        assertThat(lines(pages)).containsExactly(
                "opened opened correlated_failure critical +0",
                "resolved resolved correlated_failure critical +600",
                "opened opened correlated_failure critical +3600");
        assertThat(pages.get(2).getIncidentId()).isNotEqualTo(pages.get(0).getIncidentId());
        assertThat(pages.get(2).getMembers()).singleElement().extracting(IncidentMember::getEpisodes).isEqualTo(1);
    }

    @Test
    void aResolveOfNoOpenMemberAndARepeatedFiringPageNothing() {
        Alert correlated = fleet("correlated_failure", "web", null, Severity.critical, 0, TIMEOUT_CUT);

        assertThat(run(List.of(resolved(correlated, 10)))).isEmpty();
        assertThat(lines(run(List.of(correlated, correlated, Alerts.at(correlated, Severity.warning, 30))))).containsExactly(
                "opened opened correlated_failure critical +0");
    }

    @Test
    void scopesAreIncidentsOfTheirOwn() {
        List<Incident> pages = run(List.of(fleet("correlated_failure", "web", null, Severity.critical, 0, TIMEOUT_CUT),
                fleet("correlated_failure", "api", null, Severity.critical, 0, TIMEOUT_CUT),
                Alerts.slots("lb1", "hc-ping", Severity.warning, 0)));

        assertThat(pages).extracting(Incident::getIncidentKey).containsExactly("target_group/web", "target_group/api", "frontend/hc-ping");
    }
}
