package io.hcwatch.incident;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.Severity;
import io.hcwatch.detect.AlertType;
import io.hcwatch.testsupport.RepoFiles;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CausalRankTest {

    @Test
    void correlatedFailureIsTheCauseOnlyWhenItsDiagnosisNamesOne() {
        assertThat(role("correlated_failure", "shared_dependency_deep_check")).isEqualTo(Role.CAUSE);
        assertThat(role("correlated_failure", "zonal")).isEqualTo(Role.CAUSE);
        assertThat(role("correlated_failure", "timeout_below_latency")).isEqualTo(Role.MECHANISM);
        assertThat(role("correlated_failure", "overload_cascade")).isEqualTo(Role.MECHANISM);
    }

    @Test
    void theConfigChangeOutranksTheLatencyItCausedWhichOutranksTheImpact() {
        assertThat(rank("health_check_config_risk")).isLessThan(rank("health_latency_headroom"));
        assertThat(rank("health_latency_headroom")).isLessThan(rank("replacement_churn"));
        assertThat(rank("replacement_churn")).isLessThan(rank("fail_open_routing"));
        assertThat(rank("fail_open_routing")).isLessThan(rank("dns_failover"));
        assertThat(rank("client_flood")).isLessThan(rank("socket_slot_exhaustion"));
    }

    /**
     * What one key's update sends, in the order a monitor sends it: {@code type@second} firing,
     * {@code -type@second} resolved, in the lifecycle's order (steps in time, a step's firings first).
     */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            # lifecycle's order                                                   | sent                                                                  | why
            health_latency_headroom@0 health_check_config_risk@0                  | health_check_config_risk@0 health_latency_headroom@0                  | the timeout cut: the cause of one step first
            dns_failover@0 correlated_failure@0 health_check_config_risk@0        | health_check_config_risk@0 correlated_failure@0 dns_failover@0        | cause, mechanism, impact
            health_latency_headroom@0 health_check_config_risk@10                 | health_latency_headroom@0 health_check_config_risk@10                 | steps stay in time order: a cause a step later does not go back
            dns_failover@10 -health_check_config_risk@10                          | dns_failover@10 -health_check_config_risk@10                          | a step's firings before its resolves, whatever their rank
            -dns_failover@10 -health_check_config_risk@10                         | -health_check_config_risk@10 -dns_failover@10                         | resolves of one step, cause first too
            """)
    void aMonitorSendsTheAlertsOfOneEventTimeCauseFirst(String lifecycle, String sent, String why) {
        List<io.hcwatch.avro.v1.Alert> alerts = new ArrayList<>();
        for (String a : lifecycle.split(" ")) {
            String[] typeAt = a.replace("-", "").split("@");
            io.hcwatch.avro.v1.Alert firing = Alerts.fleet(typeAt[0], "web", null, Severity.critical, Integer.parseInt(typeAt[1]), Map.of());
            alerts.add(a.startsWith("-") ? Alerts.resolved(firing, Integer.parseInt(typeAt[1])) : firing);
        }
        alerts.sort(CausalRank.ORDER);
        assertThat(alerts).extracting(a -> (a.getStatus() == io.hcwatch.avro.v1.AlertStatus.resolved ? "-" : "") + a.getType() + "@"
                + java.time.Duration.between(Alerts.T0, a.getEventTime()).toSeconds()).as(why).containsExactly(sent.split(" "));
    }

    @Test
    void everyAlertTypeHasARow() {
        assertThat(CausalRank.TABLE).extracting(CausalRank.Row::type).containsAll(
                Arrays.stream(AlertType.values()).map(AlertType::id).toList());
    }

    private static int rank(String type) {
        return CausalRank.rank(Alerts.fleet(type, "web", null, Severity.critical, 0, Map.of()));
    }

    private static Role role(String type, String diagnosis) {
        return CausalRank.role(CausalRank.rank(Alerts.fleet(type, "web", null, Severity.critical, 0, Map.of("diagnosis", diagnosis))));
    }

    @Test
    void theContractShowsTheSameTable() throws java.io.IOException {
        List<String> documented = new ArrayList<>();
        boolean inTable = false;
        for (String line : Files.readAllLines(RepoFiles.root().resolve("docs/contract.md"))) {
            if (line.startsWith("| rank | alert type |")) {
                inTable = true;
            } else if (inTable && !line.startsWith("|")) {
                break;
            } else if (inTable && !line.startsWith("|---")) {
                String[] cells = line.split("\\|");
                String when = cells[3].strip();
                Matcher diagnosis = Pattern.compile("diagnosis `([a-z_]+)`").matcher(when);
                documented.add(cells[2].strip().replace("`", "") + " " + (diagnosis.find() ? diagnosis.group(1) : "-") + " "
                        + cells[4].strip());
            }
        }
        assertThat(documented).containsExactlyElementsOf(CausalRank.TABLE.stream()
                .map(r -> r.type() + " " + (r.diagnosis() == null ? "-" : r.diagnosis()) + " " + r.role().id()).toList());
    }
}
