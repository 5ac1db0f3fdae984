package io.hcwatch.collect;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.testsupport.RepoFiles;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The collectors' alert rules (prometheus/rules/hcwatch.rules.yml, group hcwatch-collectors) read
 * series the collectors export, and the counters they take increase() of exist at 0 before the first
 * failure: increase() cannot see a series' first sample, so a counter born at 1 hides the first
 * dead-lettered object.
 */
class CollectorMetricsTest {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final CollectorMetrics metrics = new CollectorMetrics(registry);

    @Test
    void aTopicsPublishErrorsExistAtZeroForEveryReasonOnceTheTopicIsKnown() {
        metrics.published("haproxy-stats", 1_000_000);
        String scrape = registry.scrape();
        for (String reason : new String[] {"delivery", "unavailable", "serialize", "send"}) {
            assertThat(scrape).contains("hcwatch_collector_publish_errors_total{reason=\"" + reason + "\",topic=\"haproxy-stats\"} 0.0");
        }

        metrics.publishFailed("lb-config", "unavailable");
        assertThat(registry.scrape())
                .contains("hcwatch_collector_publish_errors_total{reason=\"unavailable\",topic=\"lb-config\"} 1.0")
                .contains("hcwatch_collector_publish_errors_total{reason=\"delivery\",topic=\"lb-config\"} 0.0");
    }

    @Test
    void everyLogObjectOutcomeExistsAtZeroBeforeTheFirstObject() {
        metrics.objectsKnown();
        String scrape = registry.scrape();
        for (String outcome : new String[] {"delivered", "duplicate", "dead_lettered", "skipped", "retried"}) {
            assertThat(scrape).contains("hcwatch_collector_objects_total{outcome=\"" + outcome + "\"} 0.0");
        }
    }

    @Test
    void everyCollectorMetricTheAlertRulesReadIsExported() throws IOException {
        metrics.hostKnown("lb-1");
        metrics.pollFailed("lb-1", "timeout");
        metrics.apiFailed("DescribeTargetHealth", "timeout");
        metrics.topicKnown("haproxy-stats");
        metrics.objectsKnown();
        metrics.deadLetteredLinesKnown("alb-access-logs");
        String scrape = registry.scrape();
        Set<String> used = collectorMetricNames(collectorRules());
        assertThat(used).contains("hcwatch_collector_up", "hcwatch_collector_publish_errors_total", "hcwatch_collector_objects_total");
        assertThat(used).allSatisfy(name -> assertThat(scrape).contains("\n" + name + "{"));
    }

    @Test
    void everyCollectorMetricTheDashboardReadsIsExported() throws IOException {
        metrics.hostKnown("lb-1");
        metrics.published("haproxy-stats", 3_000_000);
        String scrape = registry.scrape();
        Set<String> used = new TreeSet<>();
        // the panels' queries, not their descriptions
        Matcher expr = Pattern.compile("\"expr\": *\"((?:[^\"\\\\]|\\\\.)*)\"")
                .matcher(Files.readString(RepoFiles.resolve("grafana/dashboards/hcwatch.json")));
        while (expr.find()) {
            used.addAll(collectorMetricNames(expr.group(1)));
        }
        assertThat(used).contains("hcwatch_collector_up", "hcwatch_collector_publish_errors_total",
                "hcwatch_collector_publish_latency_seconds_bucket");
        assertThat(used).allSatisfy(name -> assertThat(scrape).contains("\n" + name + "{"));
    }

    @Test
    void theCollectorRulesJobPatternMatchesEveryCollectorJobPrometheusScrapesAndNothingElse() throws IOException {
        Matcher rule = Pattern.compile("up\\{job=~\"([^\"]+)\"} == 0").matcher(collectorRules());
        assertThat(rule.find()).isTrue();
        Pattern collectorJobs = Pattern.compile(rule.group(1));
        Set<String> matched = new TreeSet<>();
        Set<String> other = new TreeSet<>();
        Matcher job = Pattern.compile("job_name: (\\S+)").matcher(Files.readString(RepoFiles.resolve("prometheus/prometheus.yml")));
        while (job.find()) {
            (collectorJobs.matcher(job.group(1)).matches() ? matched : other).add(job.group(1));
        }
        assertThat(matched).containsExactly("hcwatch-alb-collector", "hcwatch-alb-logs-collector", "hcwatch-haproxy-collector");
        assertThat(other).contains("hcwatch-stream-app", "hcwatch-alert-sink");
    }

    private static Set<String> collectorMetricNames(String text) {
        Set<String> names = new TreeSet<>();
        Matcher m = Pattern.compile("hcwatch_collector_[a-z_]+").matcher(text);
        while (m.find()) {
            names.add(m.group());
        }
        return names;
    }

    private static String collectorRules() throws IOException {
        String rules = Files.readString(RepoFiles.resolve("prometheus/rules/hcwatch.rules.yml"));
        int start = rules.indexOf("- name: hcwatch-collectors");
        assertThat(start).as("the hcwatch-collectors rule group").isNotNegative();
        int next = rules.indexOf("\n  - name: ", start + 1);
        return next < 0 ? rules.substring(start) : rules.substring(start, next);
    }
}
