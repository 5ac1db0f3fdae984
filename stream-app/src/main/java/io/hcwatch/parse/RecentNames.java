package io.hcwatch.parse;

/**
 * One String per name while the name recurs. The names a load balancer's lines repeat (its own
 * name, its target groups', its targets') are taken from a small table instead of being copied
 * out of every line: the same instance line after line keeps its hash (a String caches it), so
 * the ingest's maps and limits keyed by these names hash each of them once instead of once a line,
 * and find them by reference first. Checking a candidate reads the characters, with no chain of
 * multiplications as hashing has.
 *
 * <p>64 sets of 4, a set chosen by the length and the last two characters (where generated ids,
 * addresses and numbered servers differ), each candidate checked character by character: a name
 * not held costs a copy, as it did before, and takes the set's next way in turn. Names that never
 * recur (client addresses) are not for this table: they would push the recurring ones out.
 *
 * <p>A decoder may be shared by stream threads: the table is written without locks, which can only
 * lose an entry (a later miss); a String read through a race is whole, its fields being final.
 */
public final class RecentNames {

    private static final int SETS = 64;
    private static final int WAYS = 4;
    /** Longer texts are copied: ARNs' and names' parts are far shorter. */
    private static final int LONGEST = 96;

    private final String[] held = new String[SETS * WAYS];
    private final byte[] nextWay = new byte[SETS];

    /** {@code s[from, to)} as a String, the instance held for that text when there is one. */
    public String of(String s, int from, int to) {
        int length = to - from;
        if (length <= 0 || length > LONGEST) {
            return s.substring(from, to);
        }
        int set = (length * 31 + s.charAt(to - 1) * 7 + (length > 1 ? s.charAt(to - 2) : 0) * 131) & (SETS - 1);
        int base = set * WAYS;
        for (int way = 0; way < WAYS; way++) {
            String candidate = held[base + way];
            if (candidate != null && candidate.length() == length && s.regionMatches(from, candidate, 0, length)) {
                return candidate;
            }
        }
        String name = s.substring(from, to);
        int way = nextWay[set];
        held[base + way] = name;
        nextWay[set] = (byte) ((way + 1) & (WAYS - 1));
        return name;
    }
}
