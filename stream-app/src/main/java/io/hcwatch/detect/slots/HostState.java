package io.hcwatch.detect.slots;

import java.util.LinkedHashMap;
import java.util.Map;

/** One HAProxy host: its frontends' recent seconds and the maxconn settings known for it. */
public final class HostState {
    public String host;
    public Integer processMaxconn;
    public Map<String, Integer> frontendMaxconn = new LinkedHashMap<>();
    public Map<String, FrontendSeconds> frontends = new LinkedHashMap<>();

    public HostState() {
    }
}
