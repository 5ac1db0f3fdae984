package io.hcwatch.detect.feed;

import io.hcwatch.detect.AlertType;
import io.hcwatch.detect.Detector;
import io.hcwatch.detect.Finding;
import io.hcwatch.detect.Fmt;
import io.hcwatch.detect.Scope;
import io.hcwatch.detect.Severity;
import java.util.List;

/**
 * telemetry_gap: a feed that was sending has sent nothing for longer than its source's normal
 * delay (gap.after, or a multiple of the feed's own longest normal silence if longer). Judged on the feed monitor's clock, which other feeds move on and which
 * follows the wall clock when every feed is silent: a shipper that stops looks like a quiet,
 * healthy fleet to every other detector. Clears as soon as data of a recent enough time arrives.
 */
public final class TelemetryGapDetector implements Detector<FeedState> {

    /** Polls within this of the last line may count that line's own session (a poll covers the second before it). */
    static final long QUIET_SLACK_MS = 2_000;

    private final GapSettings settings;

    public TelemetryGapDetector(GapSettings settings) {
        this.settings = settings;
    }

    @Override
    public List<Finding> judge(FeedState s, long now) {
        long after = settings.allowedSilence(s);
        long silent = now - s.lastSeen;
        if (after <= 0 || !s.sentData() || silent <= after) {
            return List.of();
        }
        // a poll covers the interval before it: the one just after the last line may still count that line's session
        if (s.polledQuietSince(s.lastSeen + QUIET_SLACK_MS, now, after)) {
            return List.of();
        }
        boolean host = FeedDetection.HAPROXY.equals(s.source);
        Scope scope = host ? new Scope(null, null, null, s.name, null, null) : new Scope(s.name, null, null, null, null, null);
        String polls = polls(s, now, after);
        String summary = String.format("no %s telemetry from %s %s for %s (its normal delay is at most %s)%s",
                s.source, host ? "host" : "load balancer", s.name, Fmt.duration(silent), Fmt.duration(after),
                switch (polls) {
                    case "continuing" -> "; the collector still polls it (HAProxy is up): its log shipping stopped,"
                            + " check rsyslog and its omkafka action on the host";
                    case "stopped" -> "; the collector's polls of it stopped too: the host or HAProxy is gone";
                    default -> "";
                });
        return List.of(new Finding(AlertType.TELEMETRY_GAP, AlertType.TELEMETRY_GAP.id() + "/" + FeedDetection.key(s.source, s.name),
                Severity.ERROR, scope, summary,
                Finding.newDetails()
                        .put("source", s.source)
                        .put(host ? "host" : "lb", s.name)
                        .put("last_seen", Fmt.instant(s.lastSeen))
                        .put("silent_for", Fmt.duration(silent))
                        .put("gap_after", Fmt.duration(after))
                        .put("usual_gap", Fmt.duration(s.usualGap()))
                        .put("polls", polls.isEmpty() ? null : polls)
                        .put("last_polled", s.lastPolled > 0 ? Fmt.instant(s.lastPolled) : null)
                        .build(),
                s.lastSeen, now));
    }

    /**
     * What the collector's polls of a silent HAProxy host say: {@code continuing} when one came within
     * the silence the logs are allowed, {@code stopped} when they have gone quiet too, empty when the
     * host was never polled (no collector, or not an HAProxy feed).
     */
    private static String polls(FeedState s, long now, long after) {
        if (s.lastPolled <= 0) {
            return "";
        }
        return now - s.lastPolled <= after ? "continuing" : "stopped";
    }
}
