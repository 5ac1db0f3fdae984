package io.hcwatch.alert;

import io.hcwatch.detect.AlertType;
import io.hcwatch.detect.Finding;
import io.hcwatch.detect.Scope;
import io.hcwatch.detect.Severity;
import io.hcwatch.detect.SparseMaps;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The alert lifecycle of one monitored scope (a target group, an HAProxy host, a frontend):
 * one firing per episode and dedup_key, re-sent on a severity change or after the re-notify
 * interval, one resolve after {@code clearSteps} consecutive clear evaluation steps. A higher
 * severity is sent at once; a lower one only after it has held for {@code clearSteps} steps.
 *
 * <p>The alert id is derived from the dedup_key and the episode's start, so a record replayed
 * after a crash re-creates the same id rather than a second incident.
 */
public final class AlertBook {

    /** Firing episodes by dedup_key. The three maps are the shared empty map while empty ({@link SparseMaps}): most keys never alert. */
    public Map<String, Episode> episodes = SparseMaps.none();
    /** Per dedup_key: episodes started so far and when the last one ended; gives each episode its id. */
    public Map<String, long[]> history = SparseMaps.none();
    /** Since when each finding that must hold for a while has held without a break. */
    public Map<String, Long> holding = SparseMaps.none();

    public AlertBook() {
    }

    /**
     * Findings that hold on the records seen so far (called on every record). Fires new
     * episodes, escalates, re-notifies; never resolves.
     */
    public List<Notification> observe(List<Finding> findings, long now, LifecycleSettings settings) {
        return observeRipe(ripe(findings, now), now, settings);
    }

    /**
     * The findings that count now: those that fire at once, and those that have held without a
     * break for as long as they must (a finding that breaks off starts counting again).
     */
    private List<Finding> ripe(List<Finding> findings, long now) {
        Set<String> present = new HashSet<>();
        List<Finding> out = new ArrayList<>(findings.size());
        for (Finding f : findings) {
            if (f.holdForMillis() <= 0) {
                out.add(f);
                continue;
            }
            present.add(f.dedupKey());
            holding = SparseMaps.writable(holding);
            long since = holding.computeIfAbsent(f.dedupKey(), k -> now);
            if (now - since >= f.holdForMillis()) {
                out.add(f);
            }
        }
        if (!holding.isEmpty()) {
            holding.keySet().retainAll(present);
            holding = SparseMaps.compact(holding);
        }
        return out;
    }

    private List<Notification> observeRipe(List<Finding> findings, long now, LifecycleSettings settings) {
        List<Notification> out = new ArrayList<>();
        for (Finding f : findings) {
            Episode e = episodes.get(f.dedupKey());
            if (e == null) {
                e = new Episode();
                e.startedAt = now;
                e.alertId = nextAlertId(f.dedupKey(), now);
                e.severity = f.severity().name();
                e.remember(f);
                e.lastSentAt = now;
                e.lastHeldAt = now;
                episodes = SparseMaps.writable(episodes);
                episodes.put(f.dedupKey(), e);
                out.add(firing(f, e, now));
                continue;
            }
            Severity current = Severity.valueOf(e.severity);
            // escalate at once; step down only at evaluation steps (see step), so a condition that
            // hovers at a threshold does not page on every record
            boolean escalated = f.severity().moreSevereThan(current);
            if (escalated) {
                e.severity = f.severity().name();
                e.lowerSteps = 0;
            }
            // back after it had cleared, within the cool-down: the same episode, one more flap, said at once
            boolean flapped = e.clearSteps >= settings.clearSteps();
            if (flapped) {
                e.flaps++;
            }
            e.clearSteps = 0;
            e.clearSince = 0;
            e.lastHeldAt = now;
            e.remember(f);
            if (escalated || flapped || now - e.lastSentAt >= settings.renotifyMillis()) {
                e.lastSentAt = now;
                out.add(firing(f, e, now));
            }
        }
        return out;
    }

    /**
     * An evaluation step: {@code findings} is everything that holds at {@code now}. Every firing
     * episode without a finding counts one clear step and resolves after {@code clearSteps}.
     */
    public List<Notification> step(List<Finding> all, long now, LifecycleSettings settings) {
        List<Finding> findings = ripe(all, now);
        int clearSteps = settings.clearSteps();
        List<Notification> out = new ArrayList<>(observeRipe(findings, now, settings));
        Set<String> holding = new HashSet<>();
        findings.forEach(f -> holding.add(f.dedupKey()));
        for (Finding f : findings) {
            Episode e = episodes.get(f.dedupKey());
            if (e == null || !Severity.valueOf(e.severity).moreSevereThan(f.severity())) {
                if (e != null) {
                    e.lowerSteps = 0;
                }
                continue;
            }
            if (++e.lowerSteps >= clearSteps) {
                e.severity = f.severity().name();
                e.lowerSteps = 0;
                e.lastSentAt = now;
                out.add(firing(f, e, now));
            }
        }
        for (Iterator<Map.Entry<String, Episode>> it = episodes.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Episode> entry = it.next();
            if (holding.contains(entry.getKey())) {
                continue;
            }
            Episode e = entry.getValue();
            e.clearSteps++;
            if (e.clearSince == 0) {
                e.clearSince = now;
            }
            // resolved once clear for the clear steps and for the type's cool-down: a condition that
            // flaps (an Auto Scaling group cycling a tier) stays one incident instead of one per flap
            if (e.clearSteps >= clearSteps && now - e.clearSince >= settings.coolDown(AlertType.fromId(e.type))) {
                it.remove();
                long[] h = history.get(entry.getKey());
                if (h != null) {
                    h[1] = now;
                }
                out.add(resolved(entry.getKey(), e, now));
            }
        }
        // keys quiet for two days are forgotten, so per-client keys cannot pile up; their next
        // episode then falls on another day, which keeps its id distinct
        episodes = SparseMaps.compact(episodes);
        if (!history.isEmpty()) {
            history.entrySet().removeIf(en -> !episodes.containsKey(en.getKey()) && en.getValue()[1] > 0
                    && now - en.getValue()[1] > FORGET_AFTER_MILLIS);
            history = SparseMaps.compact(history);
        }
        return out;
    }

    public boolean isFiring(String dedupKey) {
        return episodes.containsKey(dedupKey);
    }

    private static Notification firing(Finding f, Episode e, long now) {
        return new Notification(e.alertId, f.dedupKey(), f.type(), Severity.valueOf(e.severity), true, now,
                f.windowStart(), f.windowEnd(), f.scope(), f.summary(), withFlaps(f.details(), e));
    }

    /** The details, with how often the condition cleared and came back within this episode. */
    private static Map<String, String> withFlaps(Map<String, String> details, Episode e) {
        if (e.flaps == 0) {
            return details;
        }
        Map<String, String> out = new LinkedHashMap<>(details);
        out.put("flaps", String.valueOf(e.flaps));
        return out;
    }

    private static Notification resolved(String dedupKey, Episode e, long now) {
        Map<String, String> details = new LinkedHashMap<>(withFlaps(e.details, e));
        details.put("fired_at", java.time.Instant.ofEpochMilli(e.startedAt).toString());
        details.put("last_held_at", java.time.Instant.ofEpochMilli(e.lastHeldAt).toString());
        return new Notification(e.alertId, dedupKey, AlertType.fromId(e.type), Severity.valueOf(e.severity), false, now,
                e.startedAt, now, new Scope(e.lb, e.targetGroup, e.zone, e.host, e.frontend, e.client),
                "resolved: " + e.summary, details);
    }

    private static final long FORGET_AFTER_MILLIS = 2 * 86_400_000L;

    /**
     * The id of a new episode: the dedup_key, how many episodes it had before, and the day. Not the
     * exact start time: after a crash the same records can be replayed in another interleaving of
     * partitions, and a different record may be the one that makes the condition true; the count
     * restored from the last commit is the same either way, so the replayed firing keeps its id.
     */
    private String nextAlertId(String dedupKey, long startedAt) {
        history = SparseMaps.writable(history);
        long[] h = history.computeIfAbsent(dedupKey, k -> new long[2]);
        h[0]++;
        h[1] = 0;
        long day = Math.floorDiv(startedAt, 86_400_000L);
        return UUID.nameUUIDFromBytes((dedupKey + "|" + h[0] + "|" + day).getBytes(StandardCharsets.UTF_8)).toString();
    }
}
