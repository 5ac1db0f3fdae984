package io.hcwatch.detect.slots;

import io.hcwatch.alert.AlertBook;
import io.hcwatch.time.KeyClock;
import java.util.LinkedHashMap;
import java.util.Map;

/** One HAProxy host: its frontends' recent seconds, the maxconn settings known for it, and its alerts. */
public final class HostState {
    public String host;
    public KeyClock time = new KeyClock();
    public Integer processMaxconn;
    public Map<String, Integer> frontendMaxconn = new LinkedHashMap<>();
    public Map<String, FrontendSeconds> frontends = new LinkedHashMap<>();
    public AlertBook alerts = new AlertBook();

    public HostState() {
    }
}
