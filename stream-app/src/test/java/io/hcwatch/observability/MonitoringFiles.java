package io.hcwatch.observability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.hcwatch.testsupport.RepoFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The shipped Grafana dashboard and Prometheus rules, and the metric names their PromQL reads. */
public final class MonitoringFiles {

    public static final String DASHBOARD = "grafana/dashboards/hcwatch.json";
    public static final String RULES = "prometheus/rules/hcwatch.rules.yml";

    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "by", "without", "on", "ignoring",
            "group_left", "group_right", "bool", "offset", "inf", "nan", "atan2");
    private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\(\\s*([^,)]+)");

    private MonitoringFiles() {
    }

    public static JsonNode dashboard() throws IOException {
        return new ObjectMapper().readTree(RepoFiles.resolve(DASHBOARD).toFile());
    }

    public static JsonNode rules() throws IOException {
        return new ObjectMapper(new YAMLFactory()).readTree(RepoFiles.resolve(RULES).toFile());
    }

    /** Every PromQL expression of the dashboard: panel targets and template-variable queries. */
    public static List<String> dashboardExpressions() throws IOException {
        List<String> exprs = new ArrayList<>();
        collect(dashboard(), exprs);
        return exprs;
    }

    private static void collect(JsonNode node, List<String> exprs) {
        if (node.isObject()) {
            node.fields().forEachRemaining(e -> {
                if (e.getKey().equals("expr") && e.getValue().isTextual()) {
                    exprs.add(e.getValue().asText());
                } else if (e.getKey().equals("query") && e.getValue().isObject() && e.getValue().has("query")) {
                    exprs.add(e.getValue().path("query").asText());
                } else {
                    collect(e.getValue(), exprs);
                }
            });
        } else if (node.isArray()) {
            node.forEach(n -> collect(n, exprs));
        }
    }

    public static List<String> ruleExpressions() throws IOException {
        return ruleExpressions(group -> true);
    }

    /** The expressions of the rule groups whose names {@code groups} accepts. */
    public static List<String> ruleExpressions(Predicate<String> groups) throws IOException {
        List<String> exprs = new ArrayList<>();
        for (JsonNode group : rules().path("groups")) {
            if (!groups.test(group.path("name").asText())) {
                continue;
            }
            for (JsonNode rule : group.path("rules")) {
                exprs.add(rule.path("expr").asText());
            }
        }
        return exprs;
    }

    /** Metric names in a PromQL expression (Grafana's label_values(metric, label) included). */
    public static Set<String> metricNames(String expr) {
        Set<String> names = new TreeSet<>();
        Matcher lv = LABEL_VALUES.matcher(expr);
        if (lv.find()) {
            expr = lv.group(1);
        }
        String s = expr
                .replaceAll("\"(\\\\.|[^\"\\\\])*\"", " ")                        // strings
                .replaceAll("\\{[^}]*}", " ")                                      // label matchers
                .replaceAll("\\[[^]]*]", " ")                                      // ranges, subqueries
                .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ")
                .replaceAll("\\$\\{?[a-zA-Z_0-9]+}?", " ");                        // Grafana variables
        Matcher m = IDENTIFIER.matcher(s);
        while (m.find()) {
            String id = m.group();
            int after = m.end();
            while (after < s.length() && Character.isWhitespace(s.charAt(after))) {
                after++;
            }
            boolean function = after < s.length() && s.charAt(after) == '(';
            boolean number = m.start() > 0 && Character.isDigit(s.charAt(m.start() - 1));
            if (!function && !number && !KEYWORDS.contains(id.toLowerCase(java.util.Locale.ROOT))) {
                names.add(id);
            }
        }
        return names;
    }

    public static Path path(String relative) {
        return RepoFiles.resolve(relative);
    }
}
