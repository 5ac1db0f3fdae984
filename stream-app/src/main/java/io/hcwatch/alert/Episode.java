package io.hcwatch.alert;

import io.hcwatch.detect.Finding;
import java.util.LinkedHashMap;
import java.util.Map;

/** One firing period of one dedup_key; a plain bean so it can be kept in a state store. */
public final class Episode {
    public String alertId;
    public String type;
    public String severity;
    public long startedAt;
    public long lastSentAt;
    public int clearSteps;
    /** When the condition last stopped holding (the first clear step); 0 while it holds. */
    public long clearSince;
    /** Times the condition cleared for the clear steps and came back within the cool-down. */
    public int flaps;
    /** Consecutive steps at which the condition held only at a lower severity. */
    public int lowerSteps;
    public long lastHeldAt;
    public long windowStart;
    public long windowEnd;
    public String summary;
    public Map<String, String> details = new LinkedHashMap<>();
    public String lb;
    public String targetGroup;
    public String zone;
    public String host;
    public String frontend;
    public String client;

    public Episode() {
    }

    void remember(Finding f) {
        this.type = f.type().id();
        this.summary = f.summary();
        this.details = new LinkedHashMap<>(f.details());
        this.windowStart = f.windowStart();
        this.windowEnd = f.windowEnd();
        this.lb = f.scope().lb();
        this.targetGroup = f.scope().targetGroup();
        this.zone = f.scope().zone();
        this.host = f.scope().host();
        this.frontend = f.scope().frontend();
        this.client = f.scope().client();
    }
}
