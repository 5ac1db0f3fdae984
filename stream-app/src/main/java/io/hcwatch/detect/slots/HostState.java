package io.hcwatch.detect.slots;

import java.util.LinkedHashMap;
import java.util.Map;

/** One HAProxy host: its frontends' recent seconds (logged and polled) and the maxconn settings known for it. */
public final class HostState {
    public String host;
    public Integer processMaxconn;
    public Map<String, Integer> frontendMaxconn = new LinkedHashMap<>();
    public Map<String, FrontendSeconds> frontends = new LinkedHashMap<>();
    /** Each frontend's sessions and limit as the HAProxy collector polled them (haproxy-stats). */
    public Map<String, PolledSeconds> polled = new LinkedHashMap<>();
    /** The process's connections and limit as polled (CurrConns, Maxconn); null until a poll arrives. */
    public PolledSeconds polledProcess;
    /** Who held each frontend's sessions at its latest poll near the limit; null until a poll brings any. */
    public Map<String, PolledHolders> polledHolders;

    public HostState() {
    }
}
