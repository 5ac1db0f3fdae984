package io.hcwatch.traffic;

import io.hcwatch.config.Settings;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * How many distinct target groups, targets per group, HAProxy hosts and frontends per host one
 * input partition takes in. A producer that puts an id or a timestamp into a name would otherwise
 * create a monitored key per record until the heap runs out; past a limit the record is refused
 * (the caller dead-letters it with reason {@code cardinality}) and what is already known goes on
 * being watched. A name not seen for the idle time ({@code state.idle-timeout}, event time)
 * frees its place, as its monitor forgets the key.
 */
public final class CardinalityLimits {

    /** The kinds a record can be refused for, as the metric and the dead letter name them. */
    public static final String TARGET_GROUP = "target_group";
    public static final String TARGET = "target";
    public static final String HOST = "host";
    public static final String FRONTEND = "frontend";

    public record Limits(int targetGroups, int targetsPerGroup, int hosts, int frontendsPerHost, long idleMillis) {

        public Limits {
            if (targetGroups < 1 || targetsPerGroup < 1 || hosts < 1 || frontendsPerHost < 1) {
                throw new IllegalArgumentException("limits.* must be at least 1");
            }
        }

        public static Limits from(Settings s) {
            return new Limits(s.integer("limits.target-groups"), s.integer("limits.targets-per-group"), s.integer("limits.hosts"),
                    s.integer("limits.frontends-per-host"), s.millis("state.idle-timeout"));
        }
    }

    private final Limits limits;
    private final ToLongFunction<String> hash;
    private final Names groups;
    private final Names hosts;

    public CardinalityLimits(Limits limits) {
        this(limits, CardinalityLimits::hash);
    }

    /** @param hash the 64-bit hash members (targets, frontends) are kept by; tests give one that collides */
    CardinalityLimits(Limits limits, ToLongFunction<String> hash) {
        this.limits = limits;
        this.hash = hash;
        this.groups = new Names(limits.targetGroups(), limits.idleMillis());
        this.hosts = new Names(limits.hosts(), limits.idleMillis());
    }

    /**
     * Takes in a target group and one of its targets (null: none named) at event time {@code time}:
     * null if admitted, else the kind whose limit it would pass.
     */
    public String targetGroup(String group, String target, long time) {
        return admit(groups, group, target, time, limits.targetsPerGroup(), TARGET_GROUP, TARGET);
    }

    /** As {@link #targetGroup}, for an HAProxy host and one of its frontends. */
    public String host(String host, String frontend, long time) {
        return admit(hosts, host, frontend, time, limits.frontendsPerHost(), HOST, FRONTEND);
    }

    private String admit(Names outer, String name, String member, long time, int memberLimit, String kind,
                         String memberKind) {
        if (name == null) {
            return null;
        }
        Members members = outer.admit(name, time);
        if (members == null) {
            return kind;
        }
        if (member != null && !members.admit(hash.applyAsLong(member), time, memberLimit, limits.idleMillis())) {
            return memberKind;
        }
        return null;
    }

    public int targetGroups() {
        return groups.size();
    }

    /**
     * A 64-bit hash of a member's name: members are kept by it, not by their names. Two names
     * with the same hash count as one member (the second is taken for the first: admitted, and
     * never refused for the limit), so a group could take one name more than its limit per
     * collision; with 64 bits and at most a few thousand members per group the odds are about
     * one in 10^12 per group. Not a cryptographic hash: it guards against runaway producers, not
     * against names crafted to collide.
     */
    static long hash(String name) {
        long h = 0x9E3779B97F4A7C15L ^ name.length();
        for (int i = 0; i < name.length(); i++) {
            h = (h ^ name.charAt(i)) * 0xFF51AFD7ED558CCDL;
            h ^= h >>> 29;
        }
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        return h ^ (h >>> 33);
    }

    /**
     * Names in the order they were last seen, each with its members: the least recently seen is
     * the first to check for expiry, so admitting a name costs O(1) amortised.
     */
    static final class Names {
        private final int limit;
        private final long idleMillis;
        private final LinkedHashMap<String, Members> seen = new LinkedHashMap<>(16, 0.75f, true);

        Names(int limit, long idleMillis) {
            this.limit = limit;
            this.idleMillis = idleMillis;
        }

        /** Admits {@code name} at {@code time}: its members; null when it is new and the limit is reached. */
        Members admit(String name, long time) {
            Members m = seen.get(name);
            if (m == null) {
                expire(time);
                if (seen.size() >= limit) {
                    return null;
                }
                m = new Members();
                seen.put(name, m);
            }
            m.lastSeen = Math.max(m.lastSeen, time);
            return m;
        }

        int size() {
            return seen.size();
        }

        private void expire(long time) {
            if (idleMillis <= 0) {
                return;
            }
            for (Iterator<Map.Entry<String, Members>> it = seen.entrySet().iterator(); it.hasNext(); ) {
                if (time - it.next().getValue().lastSeen < idleMillis) {
                    return;
                }
                it.remove();
            }
        }
    }

    /**
     * The members of one name (a target group's targets, a host's frontends) as an open-addressing
     * table of name hashes, each with the event time it was last seen: 16 bytes a member against
     * about 200 for a map entry with its name, and nothing for a name that has none. Sized by the
     * members it holds; members idle for the idle time are dropped when a new one comes.
     */
    static final class Members {
        /** Event time the name itself was last seen. */
        long lastSeen;
        /** Pairs of (hash, last seen); a hash of 0 marks a free pair (a name hashing to 0 is kept as 1). */
        private long[] table;
        private int size;
        /** No member was last seen before this: no expiry scan is needed until the idle time has passed it. */
        private long oldest = Long.MAX_VALUE;

        /** Admits the member with hash {@code h} at {@code time}; false when it is new and {@code limit} members are live. */
        boolean admit(long h, long time, int limit, long idleMillis) {
            long key = h == 0 ? 1 : h;
            int at = find(key);
            if (at >= 0) {
                table[at + 1] = Math.max(table[at + 1], time);
                return true;
            }
            if (idleMillis > 0 && size > 0 && time - oldest >= idleMillis) {
                rebuild(time, idleMillis);
            }
            if (size >= limit) {
                return false;
            }
            if (table == null || (size + 1) * 2 > table.length / 2) {
                grow();
            }
            put(table, key, time);
            size++;
            oldest = Math.min(oldest, time);
            return true;
        }

        int size() {
            return size;
        }

        private int find(long key) {
            if (table == null) {
                return -1;
            }
            int mask = table.length / 2 - 1;
            for (int i = slot(key, mask); ; i = (i + 1) & mask) {
                long k = table[2 * i];
                if (k == key) {
                    return 2 * i;
                }
                if (k == 0) {
                    return -1;
                }
            }
        }

        private static int slot(long key, int mask) {
            return (int) (key ^ (key >>> 32)) & mask;
        }

        private static void put(long[] into, long key, long time) {
            int mask = into.length / 2 - 1;
            int i = slot(key, mask);
            while (into[2 * i] != 0) {
                i = (i + 1) & mask;
            }
            into[2 * i] = key;
            into[2 * i + 1] = time;
        }

        /** At most half the pairs in use, so probes stay short. */
        private void grow() {
            copyInto(Math.max(2, table == null ? 2 : table.length), 0, Long.MIN_VALUE);
        }

        /** Drops the members idle at {@code time}, shrinking the table to what is left. */
        private void rebuild(long time, long idleMillis) {
            int live = 0;
            for (int i = 0; i < table.length; i += 2) {
                if (table[i] != 0 && time - table[i + 1] < idleMillis) {
                    live++;
                }
            }
            int pairs = 2;
            while (pairs < live * 2) {
                pairs *= 2;
            }
            copyInto(pairs, idleMillis, time);
        }

        /** Copies the members (those not idle at {@code time} when {@code idleMillis} > 0) into a table of {@code pairs} pairs. */
        private void copyInto(int pairs, long idleMillis, long time) {
            long[] next = new long[2 * pairs];
            int n = 0;
            long min = Long.MAX_VALUE;
            if (table != null) {
                for (int i = 0; i < table.length; i += 2) {
                    if (table[i] != 0 && (idleMillis <= 0 || time - table[i + 1] < idleMillis)) {
                        put(next, table[i], table[i + 1]);
                        n++;
                        min = Math.min(min, table[i + 1]);
                    }
                }
            }
            table = n == 0 && idleMillis > 0 ? null : next;
            size = n;
            oldest = min;
        }
    }
}
