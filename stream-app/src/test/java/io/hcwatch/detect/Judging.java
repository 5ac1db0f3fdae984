package io.hcwatch.detect;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.alert.Monitored;
import io.hcwatch.topology.state.MonitoredCodec;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Calls a detector the way its table tests do, checking on every call that judging is deterministic and pure. */
public final class Judging {

    private Judging() {
    }

    /**
     * {@code detector.judge(state, now)}, after checking that a second judgement at the same time
     * gives equal findings and that neither changed the state (as its store would encode it).
     */
    public static <S> List<Finding> judgePurely(Detector<S> detector, S state, long now, MonitoredCodec<S> codec) {
        Monitored<S> stored = new Monitored<>(state);
        String before = new String(codec.encode(stored), StandardCharsets.UTF_8);
        List<Finding> first = detector.judge(state, now);
        List<Finding> again = detector.judge(state, now);
        assertThat(again).as("judging the same state twice at the same time").isEqualTo(first);
        assertThat(new String(codec.encode(stored), StandardCharsets.UTF_8)).as("the state after judging it").isEqualTo(before);
        return first;
    }

    /** What a finding is: its type, severity, dedup key and the event-time span of its evidence. */
    public static void assertFinding(Finding f, AlertType type, Severity severity, String dedupKey, long windowStart, long windowEnd) {
        assertThat(f.type()).isEqualTo(type);
        assertThat(f.severity()).isEqualTo(severity);
        assertThat(f.dedupKey()).isEqualTo(dedupKey);
        assertThat(f.windowStart()).as("window start").isEqualTo(windowStart);
        assertThat(f.windowEnd()).as("window end").isEqualTo(windowEnd);
    }

    /** A table cell naming the expected severity, or {@code none} for no finding. */
    public static List<Severity> severities(String cell) {
        return "none".equals(cell) ? List.of() : List.of(Severity.valueOf(cell));
    }
}
