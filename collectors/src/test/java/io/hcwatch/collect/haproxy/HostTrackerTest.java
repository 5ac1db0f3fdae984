package io.hcwatch.collect.haproxy;

import static org.assertj.core.api.Assertions.assertThat;

import static org.assertj.core.groups.Tuple.tuple;
import io.hcwatch.avro.v1.CheckConfig;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.ConfigKind;
import io.hcwatch.avro.v1.FrontendStats;
import io.hcwatch.avro.v1.HaproxyStats;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.collect.Outgoing;
import io.hcwatch.collect.haproxy.cfg.HaproxyCfg;
import io.hcwatch.haproxy.BuiltinLogFormats;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class HostTrackerTest {

    private static final long T0 = Instant.parse("2026-12-02T07:33:00Z").toEpochMilli();
    private final HostTracker tracker = new HostTracker("lb1");
    private final String info = Captured.file("show-info.txt");
    private final String stat = Captured.file("show-stat.csv");

    private static Snapshot snapshot(String info, String stat) throws PollException {
        return RuntimeApiSource.parse(info + stat);
    }

    private static <T> List<T> records(HostTracker.Result r, Outgoing.Topic topic, Class<T> type) {
        return r.records().stream().filter(o -> o.topic() == topic).map(o -> type.cast(o.record())).toList();
    }

    private static HaproxyStats stats(HostTracker.Result r) {
        return records(r, Outgoing.Topic.STATS, HaproxyStats.class).get(0);
    }

    private static FrontendStats frontend(HaproxyStats s, String name) {
        return s.getFrontends().stream().filter(f -> f.getName().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void theFirstPollPublishesEveryLimitAndEveryCheckedServer() throws Exception {
        // an hour-old HAProxy: the collector cannot know which servers passed before it came, so none is starting
        HostTracker.Result r = tracker.track(snapshot(Captured.withInfo(info, "Uptime_sec", "3600"), stat), T0);

        assertThat(records(r, Outgoing.Topic.CONFIG, LbConfig.class))
                .extracting(LbConfig::getKind, LbConfig::getId, LbConfig::getHost, LbConfig::getFrontend, LbConfig::getMaxconn)
                .containsExactly(
                        tuple(ConfigKind.haproxy_process, "lb1", "lb1", null, 1000),
                        tuple(ConfigKind.haproxy_frontend, "lb1/fe_web", "lb1", "fe_web", 200),
                        tuple(ConfigKind.haproxy_frontend, "lb1/fe_api", "lb1", "fe_api", 1000),
                        tuple(ConfigKind.haproxy_frontend, "lb1/stats", "lb1", "stats", 1000));
        assertThat(r.records().stream().filter(o -> o.topic() == Outgoing.Topic.CONFIG).map(Outgoing::key))
                .containsExactly("lb1", "lb1/fe_web", "lb1/fe_api", "lb1/stats");
        assertThat(records(r, Outgoing.Topic.HEALTH, HealthCheckResult.class))
                .as("the server without checks has no check to report")
                .extracting(HealthCheckResult::getTarget, HealthCheckResult::getOutcome, HealthCheckResult::getState,
                        HealthCheckResult::getReason, HealthCheckResult::getStatusCode)
                .containsExactly(
                        tuple("ok1", CheckOutcome.pass, TargetState.healthy, "Layer7 check passed", 200),
                        tuple("err500", CheckOutcome.http_status, TargetState.unhealthy, "Layer7 wrong status", 500),
                        tuple("slow", CheckOutcome.timeout, TargetState.unhealthy, "Layer7 timeout", null),
                        tuple("refused", CheckOutcome.connect_error, TargetState.unhealthy, "Layer4 connection problem", null),
                        tuple("maint", CheckOutcome.other, TargetState.unused, null, null),
                        tuple("drain", CheckOutcome.pass, TargetState.draining, "Layer7 check passed", 200));
    }

    @Test
    void aServerIsNamedAsTheStreamAppNamesItFromHaproxyCheckLogLines() throws Exception {
        HostTracker.Result r = tracker.track(snapshot(info, stat), T0);

        Outgoing slow = r.records().stream().filter(o -> o.topic() == Outgoing.Topic.HEALTH).skip(2).findFirst().orElseThrow();
        HealthCheckResult check = (HealthCheckResult) slow.record();
        assertThat(slow.key()).isEqualTo("slow");
        assertThat(check.getSource()).isEqualTo("haproxy");
        assertThat(check.getLb()).isEqualTo("lb1");
        assertThat(check.getTargetGroup()).isEqualTo("be_web");
        assertThat(check.getTarget()).isEqualTo("slow");
        assertThat(check.getTargetIp()).isEqualTo("127.0.0.1");
        assertThat(check.getPort()).isEqualTo(18192);
        assertThat(check.getLatencyMs()).isEqualTo(1001);
        assertThat(check.getCheck()).isEqualTo(new CheckConfig(null, null, null, 2, 3));
        assertThat(check.getActiveServersLeft()).as("be_web's act: ok1 is the one active server up").isEqualTo(1);
        assertThat(check.getTs()).isEqualTo(Instant.ofEpochMilli(T0));
    }

    @Test
    void anUnchangedPollPublishesOnlyItsStatsWithDeltas() throws Exception {
        tracker.track(snapshot(info, stat), T0);
        String later = Captured.withField(Captured.withField(stat, "fe_web", "FRONTEND", "stot", "30"),
                "fe_web", "FRONTEND", "dreq", "5");

        HostTracker.Result r = tracker.track(snapshot(Captured.withInfo(info, "Uptime_sec", "9"), later), T0 + 1000);

        assertThat(r.records()).extracting(Outgoing::topic).containsExactly(Outgoing.Topic.STATS);
        HaproxyStats s = stats(r);
        assertThat(s.getIntervalMs()).isEqualTo(1000L);
        assertThat(s.getReloaded()).isFalse();
        assertThat(frontend(s, "fe_web")).extracting(FrontendStats::getStotDelta, FrontendStats::getDreqDelta,
                FrontendStats::getEreqDelta, FrontendStats::getDconDelta).containsExactly(7L, 2L, 0L, 0L);
        assertThat(frontend(s, "fe_web")).extracting(FrontendStats::getScur, FrontendStats::getSlim, FrontendStats::getSmax)
                .containsExactly(0, 200, 2);
    }

    @Test
    void theFirstPollHasNoDeltas() throws Exception {
        HaproxyStats s = stats(tracker.track(snapshot(info, stat), T0));

        assertThat(s.getIntervalMs()).isNull();
        assertThat(s.getFrontends()).allSatisfy(f -> assertThat(f.getStotDelta()).isNull());
        assertThat(s.getPid()).isEqualTo(14399);
        assertThat(s.getMaxconn()).isEqualTo(1000);
    }

    @Test
    void aChangedFrontendLimitIsPublishedOnce() throws Exception {
        tracker.track(snapshot(info, stat), T0);
        String lowered = Captured.withField(stat, "fe_web", "FRONTEND", "slim", "150");

        HostTracker.Result changed = tracker.track(snapshot(info, lowered), T0 + 1000);
        HostTracker.Result again = tracker.track(snapshot(info, lowered), T0 + 2000);

        assertThat(records(changed, Outgoing.Topic.CONFIG, LbConfig.class))
                .extracting(LbConfig::getId, LbConfig::getMaxconn).containsExactly(tuple("lb1/fe_web", 150));
        assertThat(records(again, Outgoing.Topic.CONFIG, LbConfig.class)).isEmpty();
    }

    @Test
    void eachFrontendsLogFormatFromTheConfigurationRidesWithItsLimitAndIsPublishedAgainWhenAReloadChangesIt() throws Exception {
        HaproxyCfg.Settings httplog = HaproxyCfg.parse(
                "defaults\n mode http\n option httplog\nfrontend fe_web\nfrontend fe_api\n log-format %ci\\ %ST\n");
        HaproxyCfg.Settings json = HaproxyCfg.parse(
                "defaults\n mode http\n option httplog\nfrontend fe_web\n log-format '{\"s\":%ST}'\nfrontend fe_api\n log-format %ci\\ %ST\n");

        HostTracker.Result first = tracker.track(snapshot(info, stat), T0, httplog);
        HostTracker.Result same = tracker.track(snapshot(Captured.withInfo(info, "Uptime_sec", "9"), stat), T0 + 1000, httplog);
        String reloaded = Captured.withInfo(Captured.withInfo(info, "Pid", "20001"), "Uptime_sec", "0");
        HostTracker.Result changed = tracker.track(snapshot(reloaded, stat), T0 + 2000, json);

        assertThat(records(first, Outgoing.Topic.CONFIG, LbConfig.class)).extracting(LbConfig::getId, LbConfig::getMaxconn,
                LbConfig::getLogFormat).containsExactly(tuple("lb1", 1000, null),
                tuple("lb1/fe_web", 200, BuiltinLogFormats.HTTPLOG),
                tuple("lb1/fe_api", 1000, "%ci %ST"), tuple("lb1/stats", 1000, null));
        assertThat(records(same, Outgoing.Topic.CONFIG, LbConfig.class)).isEmpty();
        assertThat(records(changed, Outgoing.Topic.CONFIG, LbConfig.class)).extracting(LbConfig::getId, LbConfig::getMaxconn,
                LbConfig::getLogFormat).containsExactly(tuple("lb1/fe_web", 200, "{\"s\":%ST}"));
    }

    @Test
    void aLimitWhosePublishFailedIsPublishedAgainAtTheNextPoll() throws Exception {
        HostTracker.Result first = tracker.track(snapshot(info, stat), T0);
        first.records().stream().filter(o -> o.key().equals("lb1/fe_web")).forEach(o -> o.onFailure().run());

        HostTracker.Result next = tracker.track(snapshot(info, stat), T0 + 1000);

        assertThat(records(next, Outgoing.Topic.CONFIG, LbConfig.class)).extracting(LbConfig::getId).containsExactly("lb1/fe_web");
    }

    @Test
    void aReloadRestartsTheCountersAndThatIntervalHasNoDeltas() throws Exception {
        tracker.track(snapshot(info, Captured.withField(stat, "fe_web", "FRONTEND", "stot", "5000")), T0);
        String newProcess = Captured.withInfo(Captured.withInfo(info, "Pid", "20001"), "Uptime_sec", "1");

        HostTracker.Result reload = tracker.track(snapshot(newProcess, stat), T0 + 1000);
        HostTracker.Result after = tracker.track(snapshot(Captured.withInfo(newProcess, "Uptime_sec", "2"),
                Captured.withField(stat, "fe_web", "FRONTEND", "stot", "25")), T0 + 2000);

        assertThat(reload.reloaded()).isTrue();
        assertThat(stats(reload).getReloaded()).isTrue();
        assertThat(stats(reload).getIntervalMs()).isNull();
        assertThat(stats(reload).getFrontends()).allSatisfy(f -> assertThat(f.getStotDelta()).isNull());
        assertThat(stats(reload).getBackends()).allSatisfy(b -> assertThat(b.getStotDelta()).isNull());
        assertThat(after.reloaded()).isFalse();
        assertThat(frontend(stats(after), "fe_web").getStotDelta()).isEqualTo(2L);
    }

    @Test
    void uptimeGoingBackIsAReloadEvenWithTheSamePid() throws Exception {
        tracker.track(snapshot(Captured.withInfo(info, "Uptime_sec", "500"), stat), T0);

        HostTracker.Result r = tracker.track(snapshot(Captured.withInfo(info, "Uptime_sec", "3"), stat), T0 + 1000);

        assertThat(r.reloaded()).isTrue();
    }

    @Test
    void countersClearedWithoutAReloadGiveNoDeltasForThatProxyNeverNegativeOnes() throws Exception {
        tracker.track(snapshot(info, stat), T0);
        String cleared = Captured.withField(stat, "fe_web", "FRONTEND", "stot", "0");

        HostTracker.Result r = tracker.track(snapshot(info, cleared), T0 + 1000);

        assertThat(r.reloaded()).isFalse();
        assertThat(r.counterResets()).containsExactly("fe_web");
        FrontendStats web = frontend(stats(r), "fe_web");
        assertThat(web.getStotDelta()).isNull();
        assertThat(web.getDreqDelta()).isNull();
        assertThat(frontend(stats(r), "fe_api").getStotDelta()).isZero();
    }

    @Test
    void aServerStatusChangeIsPublishedTimedByLastchgWithinTheInterval() throws Exception {
        tracker.track(snapshot(info, stat), T0);
        String ok1Down = Captured.withField(Captured.withField(Captured.withField(Captured.withField(stat,
                "be_web", "ok1", "status", "DOWN"), "be_web", "ok1", "check_status", "L4CON"),
                "be_web", "ok1", "check_desc", "Layer4 connection problem"), "be_web", "ok1", "lastchg", "0");

        HostTracker.Result r = tracker.track(snapshot(info, ok1Down), T0 + 5000);

        assertThat(records(r, Outgoing.Topic.HEALTH, HealthCheckResult.class))
                .extracting(HealthCheckResult::getTarget, HealthCheckResult::getOutcome, HealthCheckResult::getState,
                        HealthCheckResult::getReason, HealthCheckResult::getTs)
                .containsExactly(tuple("ok1", CheckOutcome.connect_error, TargetState.unhealthy, "Layer4 connection problem",
                        Instant.ofEpochMilli(T0 + 5000)));
        String ok1DownEarlier = Captured.withField(ok1Down, "be_web", "ok1", "lastchg", "3");
        HostTracker other = new HostTracker("lb1");
        other.track(snapshot(info, stat), T0);
        assertThat(records(other.track(snapshot(info, ok1DownEarlier), T0 + 5000), Outgoing.Topic.HEALTH,
                HealthCheckResult.class)).extracting(HealthCheckResult::getTs).containsExactly(Instant.ofEpochMilli(T0 + 2000));
    }

    @Test
    void aRunningCheckIsNotAChange() throws Exception {
        tracker.track(snapshot(info, stat), T0);
        String running = Captured.withField(stat, "be_web", "ok1", "check_status", "* L7OK");

        HostTracker.Result r = tracker.track(snapshot(info, running), T0 + 1000);

        assertThat(records(r, Outgoing.Topic.HEALTH, HealthCheckResult.class)).isEmpty();
    }

    @Test
    void aFrontendAReloadRemovedGetsANullLimit() throws Exception {
        tracker.track(snapshot(info, stat), T0);
        String withoutApi = String.join("\n", stat.lines().filter(l -> !l.startsWith("fe_api,")).toList()) + "\n\n";

        HostTracker.Result r = tracker.track(snapshot(info, withoutApi), T0 + 1000);

        assertThat(records(r, Outgoing.Topic.CONFIG, LbConfig.class)).extracting(LbConfig::getId, LbConfig::getMaxconn)
                .containsExactly(tuple("lb1/fe_api", null));
    }

    @Test
    void addressesOfIpv4AndIpv6ServersSplitIntoIpAndPort() {
        assertThat(HostTracker.address("10.0.0.5:8080")).containsExactly("10.0.0.5", "8080");
        assertThat(HostTracker.address("[2001:db8::5]:443")).containsExactly("2001:db8::5", "443");
        assertThat(HostTracker.address("/run/app.sock")).isNull();
        assertThat(HostTracker.address(null)).isNull();
    }
}
