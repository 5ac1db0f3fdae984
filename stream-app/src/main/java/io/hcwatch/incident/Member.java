package io.hcwatch.incident;

import java.util.LinkedHashMap;
import java.util.Map;

/** One member alert (one dedup_key) of an open incident; a plain bean so the incident store can keep it. */
public final class Member {
    public String dedupKey;
    public String type;
    /** The best {@link CausalRank} this member reached in the incident (a diagnosis can change between notifications). */
    public int rank;
    /** The highest severity it reached in the incident. */
    public String severity;
    public long firstFired;
    /** When its latest episode resolved; 0 while it fires. */
    public long resolved;
    public int episodes;
    public String alertId;
    public String summary;
    public String zone;
    public String client;
    public String runbookUrl;
    /** The details of its latest notification. */
    public Map<String, String> details = new LinkedHashMap<>();

    public Member() {
    }

    boolean firing() {
        return resolved == 0;
    }
}
