package io.hcwatch.detect.slots;

import io.hcwatch.avro.v1.SlotHolder;
import java.util.List;

/**
 * The clients the collector found holding a frontend's sessions at its latest poll near the limit
 * ({@code show sess}): who fills the frontend now, before their requests end and are logged.
 */
public final class PolledHolders {
    public long at;
    /** Sessions of the frontend show sess listed. */
    public int listed;
    public String[] sources;
    public int[] sessions;

    public PolledHolders() {
    }

    static PolledHolders of(long at, Integer listed, List<SlotHolder> holders) {
        PolledHolders p = new PolledHolders();
        p.at = at;
        p.sources = new String[holders.size()];
        p.sessions = new int[holders.size()];
        int sum = 0;
        for (int i = 0; i < holders.size(); i++) {
            p.sources[i] = holders.get(i).getSource();
            p.sessions[i] = holders.get(i).getSessions();
            sum += p.sessions[i];
        }
        p.listed = listed != null ? listed : sum;
        return p;
    }

    /** "127.0.0.1=180 sessions (90%),2001:db8:1:2::/64=12 sessions (6%)" for the top {@code n}. */
    String describe(int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < Math.min(n, sources.length); i++) {
            sb.append(sb.length() > 0 ? "," : "").append(sources[i]).append('=').append(sessions[i]).append(" sessions");
            if (listed > 0) {
                sb.append(" (").append(io.hcwatch.detect.Fmt.pct((double) sessions[i] / listed)).append(')');
            }
        }
        return sb.toString();
    }
}
