package io.hcwatch.detect;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.alert.Monitored;
import io.hcwatch.topology.state.MonitoredCodec;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.BiFunction;

/** Calls a detector the way its table tests do, checking on every call that judging is deterministic and pure. */
public final class Judging {

    private Judging() {
    }

    /**
     * {@code detector.judge(state, now)}, after checking that a second judgement at the same time
     * gives equal findings and that neither changed the state (as its store would encode it).
     */
    public static <S> List<Finding> judgePurely(Detector<S> detector, S state, long now, MonitoredCodec<S> codec) {
        return purely(detector::judge, state, now, codec);
    }

    /** {@code judge(state, now)}, checked the same way: equal when asked twice, and the state left as it was. */
    public static <S, R> R purely(BiFunction<S, Long, R> judge, S state, long now, MonitoredCodec<S> codec) {
        Monitored<S> stored = new Monitored<>(state);
        String before = new String(codec.encode(stored), StandardCharsets.UTF_8);
        R first = judge.apply(state, now);
        R again = judge.apply(state, now);
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
