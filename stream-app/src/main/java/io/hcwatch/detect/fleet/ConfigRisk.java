package io.hcwatch.detect.fleet;

import java.util.LinkedHashMap;
import java.util.Map;

/** The verdict taken when a target group's check settings changed, kept until the change is superseded. */
public final class ConfigRisk {
    public long changedAt;
    public Integer timeoutMs;
    public String severity;
    public String summary;
    public Map<String, String> details = new LinkedHashMap<>();

    public ConfigRisk() {
    }
}
