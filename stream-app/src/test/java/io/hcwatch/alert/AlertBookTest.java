package io.hcwatch.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.detect.AlertType;
import io.hcwatch.detect.Finding;
import io.hcwatch.detect.Scope;
import io.hcwatch.detect.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AlertBookTest {

    private static final long RENOTIFY = 15 * 60_000;
    private static final LifecycleSettings LIFECYCLE = new LifecycleSettings(RENOTIFY, 2, "https://runbooks.example/");
    private final AlertBook book = new AlertBook();

    private static Finding finding(Severity severity) {
        return new Finding(AlertType.CORRELATED_FAILURE, "correlated_failure/tg", severity, Scope.targetGroup("lb", "tg"),
                "6/18 targets failing", Map.of("failing", "6"), 0, 0);
    }

    @Test
    void firesOncePerEpisodeAndResolvesAfterTwoClearSteps() {
        assertThat(book.observe(List.of(finding(Severity.WARNING)), 1_000, LIFECYCLE)).hasSize(1);
        assertThat(book.observe(List.of(finding(Severity.WARNING)), 2_000, LIFECYCLE)).isEmpty();
        assertThat(book.step(List.of(), 10_000, LIFECYCLE)).isEmpty();
        List<Notification> resolved = book.step(List.of(), 20_000, LIFECYCLE);
        assertThat(resolved).singleElement().satisfies(n -> {
            assertThat(n.firing()).isFalse();
            assertThat(n.eventTime()).isEqualTo(20_000);
            assertThat(n.windowStart()).isEqualTo(1_000);
        });
        assertThat(book.isFiring("correlated_failure/tg")).isFalse();
    }

    @Test
    void aConditionHoldingBetweenStepsBreaksTheClearStreak() {
        book.observe(List.of(finding(Severity.WARNING)), 1_000, LIFECYCLE);
        book.step(List.of(), 10_000, LIFECYCLE);
        book.observe(List.of(finding(Severity.WARNING)), 15_000, LIFECYCLE);
        assertThat(book.step(List.of(), 20_000, LIFECYCLE)).isEmpty();
        assertThat(book.step(List.of(), 30_000, LIFECYCLE)).singleElement().satisfies(n -> assertThat(n.firing()).isFalse());
    }

    @Test
    void escalatesAtOnceButStepsDownOnlyAfterTheLowerSeverityHeldForTwoSteps() {
        Notification first = book.observe(List.of(finding(Severity.WARNING)), 1_000, LIFECYCLE).get(0);
        List<Notification> up = book.observe(List.of(finding(Severity.CRITICAL)), 2_000, LIFECYCLE);
        assertThat(up).singleElement().satisfies(n -> {
            assertThat(n.severity()).isEqualTo(Severity.CRITICAL);
            assertThat(n.alertId()).isEqualTo(first.alertId());
        });
        // hovering at the threshold: warning, critical, warning on records between steps sends nothing
        assertThat(book.observe(List.of(finding(Severity.WARNING)), 3_000, LIFECYCLE)).isEmpty();
        assertThat(book.observe(List.of(finding(Severity.CRITICAL)), 4_000, LIFECYCLE)).isEmpty();
        assertThat(book.step(List.of(finding(Severity.WARNING)), 10_000, LIFECYCLE)).isEmpty();
        List<Notification> down = book.step(List.of(finding(Severity.WARNING)), 20_000, LIFECYCLE);
        assertThat(down).singleElement().satisfies(n -> assertThat(n.severity()).isEqualTo(Severity.WARNING));
    }

    @Test
    void reNotifiesAfterTheInterval() {
        book.observe(List.of(finding(Severity.ERROR)), 0, LIFECYCLE);
        assertThat(book.observe(List.of(finding(Severity.ERROR)), RENOTIFY - 1, LIFECYCLE)).isEmpty();
        assertThat(book.observe(List.of(finding(Severity.ERROR)), RENOTIFY, LIFECYCLE)).hasSize(1);
    }

    @Test
    void replayedAfterACrashTheEpisodeKeepsItsIdEvenIfAnotherRecordTriggersIt() {
        AlertBook again = new AlertBook();
        String a = book.observe(List.of(finding(Severity.WARNING)), 1_000, LIFECYCLE).get(0).alertId();
        String b = again.observe(List.of(finding(Severity.WARNING)), 1_050, LIFECYCLE).get(0).alertId();
        assertThat(a).isEqualTo(b);
    }

    @Test
    void everyEpisodeOfAKeyGetsItsOwnId() {
        String first = book.observe(List.of(finding(Severity.WARNING)), 1_000, LIFECYCLE).get(0).alertId();
        book.step(List.of(), 10_000, LIFECYCLE);
        book.step(List.of(), 20_000, LIFECYCLE);
        String second = book.observe(List.of(finding(Severity.WARNING)), 30_000, LIFECYCLE).get(0).alertId();
        assertThat(second).isNotEqualTo(first);
    }

    private static final LifecycleSettings COOL = new LifecycleSettings(RENOTIFY, 2, "https://runbooks.example/",
            java.util.Map.of(AlertType.CORRELATED_FAILURE, 300_000L));

    @Test
    void aConditionBackWithinTheCoolDownContinuesItsEpisodeAndCountsTheFlap() {
        Notification fired = book.observe(List.of(finding(Severity.WARNING)), 1_000, COOL).get(0);
        assertThat(book.step(List.of(), 10_000, COOL)).isEmpty();
        assertThat(book.step(List.of(), 20_000, COOL)).as("clear for the clear steps, not yet for the cool-down").isEmpty();
        assertThat(book.step(List.of(), 60_000, COOL)).isEmpty();
        List<Notification> back = book.step(List.of(finding(Severity.WARNING)), 70_000, COOL);
        assertThat(back).singleElement().satisfies(n -> {
            assertThat(n.firing()).isTrue();
            assertThat(n.alertId()).isEqualTo(fired.alertId());
            assertThat(n.details()).containsEntry("flaps", "1");
        });
        assertThat(book.isFiring("correlated_failure/tg")).isTrue();
    }

    @Test
    void aShortGapIsNoFlap() {
        book.observe(List.of(finding(Severity.WARNING)), 1_000, COOL);
        book.step(List.of(), 10_000, COOL);
        assertThat(book.step(List.of(finding(Severity.WARNING)), 20_000, COOL)).isEmpty();
        book.step(List.of(), 30_000, COOL);
        book.step(List.of(), 40_000, COOL);
        Notification again = book.step(List.of(finding(Severity.WARNING)), 50_000, COOL).get(0);
        assertThat(again.details()).containsEntry("flaps", "1");
    }

    @Test
    void anEpisodeResolvesOnceClearForTheCoolDownWithTheFlapsInItsDetails() {
        book.observe(List.of(finding(Severity.WARNING)), 1_000, COOL);
        book.step(List.of(), 10_000, COOL);
        book.step(List.of(), 20_000, COOL);
        book.step(List.of(finding(Severity.WARNING)), 30_000, COOL);
        List<Notification> resolves = new ArrayList<>();
        for (long t = 40_000; t <= 400_000; t += 10_000) {
            resolves.addAll(book.step(List.of(), t, COOL));
        }
        // clear from the step at 40s: resolved at the first step at least 5 minutes later
        assertThat(resolves).singleElement().satisfies(n -> {
            assertThat(n.firing()).isFalse();
            assertThat(n.eventTime()).isEqualTo(340_000);
            assertThat(n.details()).containsEntry("flaps", "1");
        });
    }

    @Test
    void typesWithoutACoolDownResolveAfterTheClearStepsAlone() {
        LifecycleSettings otherType = new LifecycleSettings(RENOTIFY, 2, "https://runbooks.example/",
                java.util.Map.of(AlertType.CLIENT_FLOOD, 300_000L));
        book.observe(List.of(finding(Severity.WARNING)), 1_000, otherType);
        book.step(List.of(), 10_000, otherType);
        assertThat(book.step(List.of(), 20_000, otherType)).singleElement().satisfies(n -> assertThat(n.firing()).isFalse());
    }

    @Test
    void coolDownsByTypeAreReadFromTheSettingsAndAnUnknownTypeIsRefused() {
        LifecycleSettings s = LifecycleSettings.from(io.hcwatch.config.Settings.defaults()
                .with(java.util.Map.of("alert.cool-down-by-type", "client_flood=1m, dns_failover=10m")));
        assertThat(s.coolDown(AlertType.CLIENT_FLOOD)).isEqualTo(60_000);
        assertThat(s.coolDown(AlertType.DNS_FAILOVER)).isEqualTo(600_000);
        assertThat(s.coolDown(AlertType.CORRELATED_FAILURE)).isEqualTo(300_000);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LifecycleSettings.from(io.hcwatch.config.Settings.defaults()
                        .with(java.util.Map.of("alert.cool-down-by-type", "client_floods=1m"))))
                .hasMessageContaining("'client_floods' is not an alert type");
    }
}
