package io.hcwatch.collect.haproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.hcwatch.avro.v1.CheckConfig;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.collect.Outgoing;
import io.hcwatch.collect.haproxy.cfg.HaproxyCfg;
import io.hcwatch.collect.haproxy.cfg.ServerCheckConfig;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The captured show stat of HAProxy 2.6 (capture.sh) with the configuration that produced it. */
class CheckTrackerTest {

    private static final long T0 = Instant.parse("2026-12-02T07:33:00Z").toEpochMilli();
    /** The haproxy.cfg capture.sh ran HAProxy with. */
    private static final String CFG = configOfCapture();

    private final CheckTracker tracker = new CheckTracker("lb1");
    private final String info = Captured.file("show-info.txt");
    private final String stat = Captured.file("show-stat.csv");
    private final String hourOld = Captured.withInfo(info, "Uptime_sec", "3600");
    private final HaproxyCfg.Settings cfg = HaproxyCfg.parse(CFG);

    private List<HealthCheckResult> poll(String info, String stat, long at, long previous, boolean restarted,
                                         HaproxyCfg.Settings cfg) throws PollException {
        List<Outgoing> out = new ArrayList<>();
        tracker.track(RuntimeApiSource.parse(info + stat), at, previous, restarted, cfg, out);
        return out.stream().map(o -> (HealthCheckResult) o.record()).toList();
    }

    private static String configOfCapture() {
        String script = Captured.file("capture.sh");
        int start = script.indexOf("<<CFG\n") + "<<CFG\n".length();
        return script.substring(start, script.indexOf("\nCFG\n", start));
    }

    @Test
    void serversOfAYoungHaproxyWhoseChecksNeverPassedAreStartingUntilTheyPass() throws Exception {
        List<HealthCheckResult> first = poll(info, stat, T0, T0, true, cfg);

        assertThat(first).extracting(HealthCheckResult::getTarget, HealthCheckResult::getState)
                .as("HAProxy has run 8 s: the failing servers have never been up")
                .containsExactly(tuple("ok1", TargetState.healthy), tuple("err500", TargetState.initial),
                        tuple("slow", TargetState.initial), tuple("refused", TargetState.initial),
                        tuple("maint", TargetState.unused), tuple("drain", TargetState.draining));
        assertThat(first.get(1).getRegisteredAt()).as("registered when the process started")
                .isEqualTo(Instant.ofEpochMilli(T0 - 8_000));
        assertThat(first.get(0).getRegisteredAt()).isNull();

        String err500Up = Captured.withField(Captured.withField(Captured.withField(stat, "be_web", "err500", "status", "UP"),
                "be_web", "err500", "check_status", "L7OK"), "be_web", "err500", "check_code", "200");
        List<HealthCheckResult> later = poll(Captured.withInfo(info, "Uptime_sec", "9"), err500Up, T0 + 300, T0, false, cfg);

        assertThat(later).extracting(HealthCheckResult::getTarget, HealthCheckResult::getState)
                .containsExactly(tuple("err500", TargetState.healthy));
    }

    @Test
    void serversOfAHaproxyFirstSeenAfterItsFirstMinuteAreJudgedByTheirState() throws Exception {
        assertThat(poll(hourOld, stat, T0, T0, true, cfg)).extracting(HealthCheckResult::getState)
                .doesNotContain(TargetState.initial);
    }

    @Test
    void aReloadStartsEveryServerAgainAndItsRecordsCarryTheReloadedCheckSettings() throws Exception {
        poll(hourOld, stat, T0, T0, true, cfg);
        HaproxyCfg.Settings cut = HaproxyCfg.parse(CFG.replace("timeout check 1s", "timeout check 200ms"));
        String reloaded = Captured.withInfo(Captured.withInfo(info, "Pid", "20001"), "Uptime_sec", "0");

        List<HealthCheckResult> r = poll(reloaded, stat, T0 + 1000, T0, true, cut);

        assertThat(r).extracting(HealthCheckResult::getTarget, HealthCheckResult::getState)
                .containsExactly(tuple("ok1", TargetState.healthy), tuple("err500", TargetState.initial),
                        tuple("slow", TargetState.initial), tuple("refused", TargetState.initial),
                        tuple("drain", TargetState.draining));
        assertThat(r).extracting(HealthCheckResult::getCheck).containsOnly(new CheckConfig("/health", 500, 200, 2, 3));
    }

    @Test
    void aCompletedCheckIsPublishedWithItsLatencyThoughNothingChangedState() throws Exception {
        poll(hourOld, stat, T0, T0, true, cfg);
        String slower = Captured.withField(stat, "be_web", "ok1", "check_duration", "37");

        List<HealthCheckResult> r = poll(hourOld, slower, T0 + 300, T0, false, cfg);

        assertThat(r).extracting(HealthCheckResult::getTarget, HealthCheckResult::getLatencyMs, HealthCheckResult::getState,
                HealthCheckResult::getCheck).containsExactly(tuple("ok1", 37, TargetState.healthy,
                new CheckConfig("/health", 500, 1_000, 2, 3)));
    }

    @Test
    void theSameReadingIsANewCheckOnceTheServersIntervalAndLastDurationHavePassed() throws Exception {
        poll(hourOld, stat, T0, T0, true, cfg);

        assertThat(poll(hourOld, stat, T0 + 400, T0, false, cfg)).as("inter 500 ms has not passed").isEmpty();
        assertThat(poll(hourOld, stat, T0 + 1000, T0 + 400, false, cfg)).extracting(HealthCheckResult::getTarget)
                .as("slow's last check took 1001 ms, so its next one cannot have completed yet; the DOWN ones check at downinter = inter")
                .containsExactly("ok1", "err500", "refused", "drain");
    }

    @Test
    void withoutTheConfigurationAnUnchangedReadingIsNoNewCheck() throws Exception {
        poll(hourOld, stat, T0, T0, true, null);

        assertThat(poll(hourOld, stat, T0 + 60_000, T0, false, null)).isEmpty();
    }

    @Test
    void aCheckThatWasRunningAtThePreviousPollAndIsNotNowHasCompleted() throws Exception {
        poll(hourOld, stat, T0, T0, true, null);
        poll(hourOld, Captured.withField(stat, "be_web", "ok1", "check_status", "* L7OK"), T0 + 100, T0, false, null);

        assertThat(poll(hourOld, stat, T0 + 200, T0 + 100, false, null)).extracting(HealthCheckResult::getTarget)
                .containsExactly("ok1");
    }

    @Test
    void aBackendCarriesOnlyTheSettingsAllItsCheckedServersShare() {
        ServerCheckConfig a = new ServerCheckConfig(true, 2_000, 2_000, 2_000, 2, 3, 1_000, null, "/health");
        ServerCheckConfig b = new ServerCheckConfig(true, 5_000, 5_000, 5_000, 2, 3, 1_000, null, "/health");
        ServerCheckConfig unchecked = new ServerCheckConfig(false, 9_000, 9_000, 9_000, 9, 9, 1_000, null, "/health");

        assertThat(CheckConfigs.backend(List.of(a, b, unchecked))).isEqualTo(new CheckConfig("/health", null, 1_000, 2, 3));
        assertThat(CheckConfigs.backend(List.of(unchecked))).isNull();
    }
}
