package io.hcwatch.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.config.Settings;
import io.hcwatch.detect.AlertType;
import io.hcwatch.detect.Detection;
import io.hcwatch.detect.Detector;
import io.hcwatch.detect.Finding;
import io.hcwatch.detect.Scope;
import io.hcwatch.detect.Severity;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A batch (one second's checks of a key) is judged after its last record and after every record
 * the detection says changed what findings rest on; so a condition that held only between two
 * records of a batch is seen however the ingest cut the second, whole (replay) or in parts (live).
 * The detection is a switch whose finding pages at once (no_healthy_targets has no pending time).
 */
class KeyMonitorBatchTest {

    private static final long T0 = Instant.parse("2026-03-03T14:30:00Z").toEpochMilli();
    private static final long STEP = 10_000;

    /** "on" and "off" set the switch; {@code transitions} says whether a change is reported as one. */
    private record Switch(boolean transitions) implements Detection<boolean[], String> {
        @Override
        public boolean[] newState(String key, String first) {
            return new boolean[1];
        }

        @Override
        public boolean apply(boolean[] state, String record, long now) {
            boolean on = "on".equals(record);
            boolean changed = state[0] != on;
            state[0] = on;
            return transitions && changed;
        }

        @Override
        public List<Detector<boolean[]>> detectors() {
            return List.of((s, now) -> s[0]
                    ? List.of(new Finding(AlertType.NO_HEALTHY_TARGETS, "tg/no_healthy_targets", Severity.CRITICAL,
                            Scope.targetGroup("lb", "tg"), "switched on", Map.of(), now, now))
                    : List.of());
        }
    }

    private static KeyMonitor<boolean[], String> monitor(boolean transitions) {
        return new KeyMonitor<>(new Switch(transitions), LifecycleSettings.from(Settings.defaults()), STEP);
    }

    @Test
    void aTransitionInsideABatchIsJudgedAtItsOwnTime() {
        KeyMonitor<boolean[], String> monitor = monitor(true);
        Monitored<boolean[]> m = monitor.newKey("tg", "off");
        List<Notification> sent = monitor.apply(m, List.of("off", "on", "off"), new long[] {T0, T0 + 300, T0 + 600});
        assertThat(sent).singleElement().satisfies(n -> {
            assertThat(n.firing()).isTrue();
            assertThat(n.eventTime()).isEqualTo(T0 + 300);
        });
    }

    @Test
    void aWholeBatchSendsWhatTheSameRecordsInPartsSend() {
        List<String> records = List.of("off", "on", "on", "off", "off");
        long[] times = {T0, T0 + 200, T0 + 400, T0 + 600, T0 + 800};
        KeyMonitor<boolean[], String> monitor = monitor(true);

        Monitored<boolean[]> whole = monitor.newKey("tg", "off");
        List<Notification> fromWhole = monitor.apply(whole, records, times);

        Monitored<boolean[]> parted = monitor.newKey("tg", "off");
        List<Notification> fromParts = new ArrayList<>();
        for (int cut = 0; cut < records.size(); cut += 2) {
            int end = Math.min(records.size(), cut + 2);
            long[] part = java.util.Arrays.copyOfRange(times, cut, end);
            fromParts.addAll(monitor.apply(parted, records.subList(cut, end), part));
        }
        assertThat(fromWhole).isNotEmpty();
        assertThat(fromWhole).extracting(Notification::firing, Notification::eventTime)
                .isEqualTo(fromParts.stream().map(n -> org.assertj.core.groups.Tuple.tuple(n.firing(), n.eventTime())).toList());
    }

    @Test
    void withoutTransitionsABatchIsJudgedOnceAfterItsLastRecord() {
        KeyMonitor<boolean[], String> monitor = monitor(false);
        Monitored<boolean[]> m = monitor.newKey("tg", "off");
        assertThat(monitor.apply(m, List.of("off", "on", "off"), new long[] {T0, T0 + 300, T0 + 600})).isEmpty();
        assertThat(monitor.apply(m, List.of("off", "on"), new long[] {T0 + 700, T0 + 900}))
                .singleElement().satisfies(n -> assertThat(n.eventTime()).isEqualTo(T0 + 900));
    }
}
