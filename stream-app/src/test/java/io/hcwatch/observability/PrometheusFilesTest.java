package io.hcwatch.observability;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.hcwatch.testsupport.ExternalTool;
import io.hcwatch.testsupport.RepoFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The shipped Prometheus config, alert rules (with their unit tests) and Grafana dashboard are valid. */
class PrometheusFilesTest {

    private static final Duration LIMIT = Duration.ofSeconds(60);

    @Test
    void promtoolAcceptsTheScrapeConfigAndTheRuleFileItLoads() {
        ExternalTool.Result r = ExternalTool.promtool().run(RepoFiles.resolve("prometheus"), null, LIMIT,
                "check", "config", "prometheus.yml");
        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.output()).contains("SUCCESS: 1 rule files found");
    }

    @Test
    void promtoolAcceptsTheAlertRules() {
        ExternalTool.Result r = ExternalTool.promtool().run(RepoFiles.resolve("prometheus"), null, LIMIT,
                "check", "rules", "rules/hcwatch.rules.yml");
        assertThat(r.exitCode()).as(r.output()).isZero();
    }

    @Test
    void theAlertRulesFireAndStayQuietAsTheirUnitTestsSay() {
        ExternalTool.Result r = ExternalTool.promtool().run(RepoFiles.resolve("prometheus"), null, LIMIT,
                "test", "rules", "tests/hcwatch.rules.test.yml");
        assertThat(r.exitCode()).as(r.output()).isZero();
    }

    @Test
    void everyAlertRuleHasASeverityASummaryAndARunbookAnchorInTheMonitoringDoc() throws IOException {
        String doc = Files.readString(RepoFiles.resolve("docs/monitoring.md"));
        int rules = 0;
        for (JsonNode group : MonitoringFiles.rules().path("groups")) {
            for (JsonNode rule : group.path("rules")) {
                rules++;
                String name = rule.path("alert").asText();
                assertThat(rule.path("labels").path("severity").asText()).as(name).isIn("critical", "warning", "info");
                assertThat(rule.path("annotations").path("summary").asText()).as(name).isNotBlank();
                String anchor = name.toLowerCase(Locale.ROOT);
                assertThat(rule.path("annotations").path("runbook_url").asText()).as(name).endsWith("#" + anchor);
                assertThat(doc).as("docs/monitoring.md has a heading for " + name).contains("### " + name);
            }
        }
        assertThat(rules).isGreaterThanOrEqualTo(10);
    }

    @Test
    void theDashboardHasUniquePanelIdsNoOverlapAndAQueryInEveryPanel() throws IOException {
        JsonNode dashboard = MonitoringFiles.dashboard();
        assertThat(dashboard.path("uid").asText()).isEqualTo("hcwatch-overview");
        Set<Integer> ids = new HashSet<>();
        List<int[]> boxes = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            String title = panel.path("title").asText();
            assertThat(ids.add(panel.path("id").asInt())).as("unique id of " + title).isTrue();
            JsonNode g = panel.path("gridPos");
            int[] box = {g.path("x").asInt(), g.path("y").asInt(), g.path("w").asInt(), g.path("h").asInt()};
            assertThat(box[0] + box[2]).as(title).isLessThanOrEqualTo(24);
            for (int[] other : boxes) {
                boolean overlap = box[0] < other[0] + other[2] && other[0] < box[0] + box[2]
                        && box[1] < other[1] + other[3] && other[1] < box[1] + box[3];
                assertThat(overlap).as("%s overlaps another panel", title).isFalse();
            }
            boxes.add(box);
            if (!panel.path("type").asText().equals("row")) {
                assertThat(panel.path("targets")).as(title).isNotEmpty();
                assertThat(panel.path("description").asText()).as(title).isNotBlank();
            }
        }
        assertThat(MonitoringFiles.dashboardExpressions()).hasSizeGreaterThan(20);
    }

    @Test
    void metricNamesAreReadOutOfPromQl() {
        assertThat(MonitoringFiles.metricNames(
                "sum by (source, reason) (rate(hcwatch_records_rejected_total{job=\"a\", x=~\"b|c\"}[$__rate_interval]))"
                        + " / on(job) group_left sum(rate(hcwatch_records_total[5m] offset 1h)) > 0.05"))
                .containsExactlyInAnyOrder("hcwatch_records_rejected_total", "hcwatch_records_total");
        assertThat(MonitoringFiles.metricNames("label_values(hcwatch_targets_healthy, target_group)"))
                .containsExactly("hcwatch_targets_healthy");
        assertThat(MonitoringFiles.metricNames("histogram_quantile(0.99, sum by (le) (rate(x_bucket[1m])))"))
                .containsExactly("x_bucket");
    }
}
