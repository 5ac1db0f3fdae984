package io.hcwatch.incident;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The evidence an incident's page carries, taken from its members' latest details: what to act on
 * (the diagnosis, the recommended timeout, who holds the slots, whom to block) and where (the zones).
 */
final class Evidence {

    /** Detail keys carried over from the best-ranked member that has them. */
    private static final List<String> CARRIED = List.of("diagnosis", "recommended_timeout_ms", "timeout_ms", "slot_holders",
            "tarpit_share");

    private Evidence() {
    }

    static Map<String, String> of(List<Member> members) {
        Map<String, String> out = new TreeMap<>();
        List<Member> byRank = members.stream()
                .sorted(Comparator.comparingInt((Member m) -> m.rank).thenComparingLong(m -> m.firstFired).thenComparing(m -> m.dedupKey))
                .toList();
        for (String key : CARRIED) {
            for (Member m : byRank) {
                String value = m.details.get(key);
                if (value != null) {
                    out.put(key, value);
                    break;
                }
            }
        }
        TreeSet<String> zones = new TreeSet<>();
        TreeSet<String> block = new TreeSet<>();
        for (Member m : members) {
            if (m.zone != null) {
                zones.add(m.zone);
            }
            if (m.type.equals("client_flood") && m.client != null) {
                block.add(m.client);
            }
        }
        if (!zones.isEmpty()) {
            out.put("zones", String.join(",", zones));
        }
        if (!block.isEmpty()) {
            out.put("block", String.join(",", block));
        }
        out.put("members_firing", String.valueOf(members.stream().filter(Member::firing).count()));
        return out;
    }
}
