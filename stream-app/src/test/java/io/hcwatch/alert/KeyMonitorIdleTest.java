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
 * A key that stops sending: once idle its alerts resolve through the lifecycle (clear steps, then
 * cool-down), and only then, with its alert history forgotten, may it be deleted. The detection is
 * a latch (a condition that holds until told otherwise), so nothing but idleness can clear it.
 * Expected times are worked out by hand from the settings: step 10 s, 2 clear steps, cool-down 5 min,
 * idle after 1 h, history forgotten 2 days after the resolve.
 */
class KeyMonitorIdleTest {

    private static final long T0 = Instant.parse("2026-03-03T14:30:00Z").toEpochMilli();
    private static final long STEP = 10_000;
    private static final long HOUR = 3_600_000;
    private static final long DAY = 86_400_000;

    /** Holds "on" once told so, until told "off". */
    private static final class Latch implements Detection<boolean[], String> {
        @Override
        public boolean[] newState(String key, String first) {
            return new boolean[1];
        }

        @Override
        public boolean apply(boolean[] state, String record, long now) {
            state[0] = "on".equals(record);
            return false;
        }

        @Override
        public List<Detector<boolean[]>> detectors() {
            return List.of((s, now) -> s[0]
                    ? List.of(new Finding(AlertType.NO_HEALTHY_TARGETS, "tg/no_healthy_targets", Severity.CRITICAL,
                            Scope.targetGroup("lb", "tg"), "latched", Map.of(), now - STEP, now))
                    : List.of());
        }
    }

    private final KeyMonitor<boolean[], String> monitor = new KeyMonitor<>(new Latch(),
            LifecycleSettings.from(Settings.defaults().with(Map.of("alert.cool-down", "5m", "alert.clear-steps", "2"))), STEP, HOUR);

    @Test
    void anIdleKeysAlertResolvesThroughTheLifecycleAndTheKeyIsForgottenOnlyAfterItsHistory() {
        Monitored<boolean[]> m = monitor.newKey("tg", "on");
        List<Notification> sent = new ArrayList<>(monitor.apply(m, "on", T0));
        assertThat(sent).singleElement().satisfies(n -> assertThat(n.firing()).isTrue());

        // still holding one step before the hour (re-notified on the way): the latch is all the key says
        sent.addAll(stepTo(m, T0 + HOUR - STEP));
        assertThat(sent).allMatch(Notification::firing);
        assertThat(monitor.forgettable(m, T0 + HOUR - STEP)).isFalse();

        // idle from T0 + 1 h: clear from that step, 2 clear steps reached at +10 s, cool-down 5 min from the first
        List<Notification> resolved = stepTo(m, T0 + HOUR + 5 * 60_000);
        assertThat(resolved).singleElement().satisfies(n -> {
            assertThat(n.firing()).isFalse();
            assertThat(n.eventTime()).isEqualTo(T0 + HOUR + 5 * 60_000);
        });
        // resolved, but its alert history is kept: the key stays
        assertThat(monitor.forgettable(m, T0 + HOUR + 5 * 60_000)).isFalse();
        long forgotten = T0 + HOUR + 5 * 60_000 + 2 * DAY + STEP;
        stepTo(m, forgotten - STEP);
        assertThat(monitor.forgettable(m, forgotten - STEP)).isFalse();
        stepTo(m, forgotten);
        assertThat(monitor.forgettable(m, forgotten)).isTrue();
    }

    @Test
    void aKeyThatSendsAgainBeforeTheIdleTimeIsNeitherClearedNorForgotten() {
        Monitored<boolean[]> m = monitor.newKey("tg", "on");
        monitor.apply(m, "on", T0);
        monitor.apply(m, "on", T0 + HOUR - STEP);
        assertThat(stepTo(m, T0 + 2 * HOUR - 2 * STEP)).allMatch(Notification::firing);
        assertThat(monitor.forgettable(m, T0 + 2 * HOUR - 2 * STEP)).isFalse();
    }

    @Test
    void aQuietKeyWithoutAlertsIsForgottenAtTheIdleTime() {
        Monitored<boolean[]> m = monitor.newKey("tg", "off");
        monitor.apply(m, "off", T0 + 1);
        stepTo(m, T0 + HOUR);
        assertThat(monitor.forgettable(m, T0 + HOUR)).isFalse();
        stepTo(m, T0 + HOUR + STEP);
        assertThat(monitor.forgettable(m, T0 + HOUR + 1)).isTrue();
    }

    /** Every step up to {@code until}, one at a time, as the monitor's clock runs them for every key. */
    private List<Notification> stepTo(Monitored<boolean[]> m, long until) {
        List<Notification> out = new ArrayList<>();
        for (long at = m.time.lastStep + STEP; at <= until; at += STEP) {
            out.addAll(monitor.reach(m, at));
        }
        return out;
    }

    @Test
    void withoutAnIdleTimeNothingIsForgotten() {
        KeyMonitor<boolean[], String> keepAll = new KeyMonitor<>(new Latch(), LifecycleSettings.from(Settings.defaults()), STEP);
        Monitored<boolean[]> m = keepAll.newKey("tg", "off");
        keepAll.apply(m, "off", T0);
        keepAll.reach(m, T0 + 30 * DAY);
        assertThat(keepAll.forgettable(m, T0 + 30 * DAY)).isFalse();
    }
}
