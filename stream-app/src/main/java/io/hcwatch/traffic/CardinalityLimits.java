package io.hcwatch.traffic;

import io.hcwatch.config.Settings;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

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
    private final Names<Names<Void>> groups;
    private final Names<Names<Void>> hosts;

    public CardinalityLimits(Limits limits) {
        this.limits = limits;
        this.groups = new Names<>(limits.targetGroups(), limits.idleMillis());
        this.hosts = new Names<>(limits.hosts(), limits.idleMillis());
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

    private String admit(Names<Names<Void>> outer, String name, String member, long time, int memberLimit, String kind,
                         String memberKind) {
        if (name == null) {
            return null;
        }
        Names<Void> members = outer.admit(name, time);
        if (members == null) {
            if (!outer.contains(name)) {
                return kind;
            }
            members = new Names<>(memberLimit, limits.idleMillis());
            outer.attach(name, members);
        }
        if (member != null && members.admit(member, time) == null && !members.contains(member)) {
            return memberKind;
        }
        return null;
    }

    public int targetGroups() {
        return groups.size();
    }

    /**
     * Names in the order they were last seen, each with the event time it was last seen and what
     * hangs on it: the least recently seen is the first to check for expiry, so admitting a name
     * costs O(1) amortised.
     */
    static final class Names<V> {
        private final int limit;
        private final long idleMillis;
        private final LinkedHashMap<String, Entry<V>> seen = new LinkedHashMap<>(16, 0.75f, true);

        private static final class Entry<V> {
            long lastSeen;
            V value;
        }

        Names(int limit, long idleMillis) {
            this.limit = limit;
            this.idleMillis = idleMillis;
        }

        /**
         * Admits {@code name} at {@code time}: its value when known (null if none attached yet);
         * null, and {@link #contains} false, when the limit is reached.
         */
        V admit(String name, long time) {
            Entry<V> e = seen.get(name);
            if (e == null) {
                expire(time);
                if (seen.size() >= limit) {
                    return null;
                }
                e = new Entry<>();
                seen.put(name, e);
            }
            e.lastSeen = Math.max(e.lastSeen, time);
            return e.value;
        }

        boolean contains(String name) {
            return seen.containsKey(name);
        }

        void attach(String name, V value) {
            seen.get(name).value = value;
        }

        int size() {
            return seen.size();
        }

        private void expire(long time) {
            if (idleMillis <= 0) {
                return;
            }
            for (Iterator<Map.Entry<String, Entry<V>>> it = seen.entrySet().iterator(); it.hasNext(); ) {
                if (time - it.next().getValue().lastSeen < idleMillis) {
                    return;
                }
                it.remove();
            }
        }
    }
}
