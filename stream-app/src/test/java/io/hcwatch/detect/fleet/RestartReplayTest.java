package io.hcwatch.detect.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.alert.Notification;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.config.Settings;
import io.hcwatch.detect.AlertType;
import io.hcwatch.time.MonitorClock;
import io.hcwatch.time.Upstreams;
import io.hcwatch.alert.Monitored;
import io.hcwatch.topology.TopologyFactory;
import io.hcwatch.topology.state.MonitoredCodec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What an at-least-once restart does to a target group mid-incident: the monitor's state and
 * clock come back from their last snapshot, the input after that snapshot is read again (some of
 * it twice, since upstream tasks replay too, and after a catch-up one partition's backlog may be
 * read before another's), then the incident ends. Wherever the crash falls, the episode that fired
 * before it keeps its id and resolves once.
 */
class RestartReplayTest {

    private static final long T0 = Checks.T0;
    private static final int TARGETS = 12;
    private static final String KEY = "correlated_failure/tg-0";
    private final Settings settings = Settings.defaults().with(java.util.Map.of("alert.cool-down", "0s"));
    private final FleetHarness monitor = new FleetHarness(settings);
    private final MonitoredCodec<FleetState> codec = TopologyFactory.fleetCodec();

    @ParameterizedTest(name = "partitions caught up one after another: {0}")
    @ValueSource(booleans = {false, true})
    void theEpisodeKeepsItsIdAndResolvesWhereverTheCrashFallsAndHowEverMuchIsReplayed(boolean bursts) {
        List<HealthCheckResult> incident = new ArrayList<>(checks(T0, T0 + 60_000, false));
        incident.addAll(checks(T0 + 60_000, T0 + 100_000, true));
        List<HealthCheckResult> recovery = checks(T0 + 100_000, T0 + 200_000, false);
        int crashes = 0;
        for (int crash = TARGETS * 12; crash <= incident.size(); crash += 7) {
            for (int snapshotLag : new int[] {0, 5, 30}) {
                for (int upstreamLag : new int[] {0, 12, 40}) {
                    int snapshotAt = Math.max(0, crash - snapshotLag);
                    Run first = new Run(monitor.newState("tg-0"), clock());
                    Snapshot snapshot = null;
                    for (int i = 0; i < crash; i++) {
                        if (i == snapshotAt) {
                            snapshot = first.snapshot();
                        }
                        first.read(incident.get(i));
                    }
                    if (snapshot == null) {
                        snapshot = first.snapshot();
                    }
                    Set<String> firedBefore = first.ids();
                    if (firedBefore.isEmpty()) {
                        continue;
                    }
                    crashes++;
                    Run second = restore(snapshot);
                    List<HealthCheckResult> rest = new ArrayList<>(incident.subList(Math.max(0, snapshotAt - upstreamLag), incident.size()));
                    rest.addAll(recovery);
                    if (bursts) {
                        // a catch-up reads each partition's backlog in one go, one partition after the other
                        rest.sort(Comparator.comparing(RestartReplayTest::upstream));
                    }
                    rest.forEach(second::read);
                    second.endOfInput();
                    String what = String.format("crash at %d, snapshot %d behind, upstream replays %d: %s", crash, snapshotLag,
                            upstreamLag, second.sent.stream().filter(n -> n.dedupKey().equals(KEY))
                                    .map(n -> (n.firing() ? "firing " : "resolved ") + n.alertId()).toList());
                    assertThat(second.ids()).as(what).isEqualTo(firedBefore);
                    assertThat(second.sent.stream().filter(n -> n.dedupKey().equals(KEY) && !n.firing())).as(what).hasSize(1);
                    assertThat(second.state.alerts.isFiring(KEY)).as(what).isFalse();
                }
            }
        }
        assertThat(crashes).as("crash points after the episode fired").isGreaterThan(20);
    }

    private MonitorClock<HealthCheckResult> clock() {
        return new MonitorClock<>(settings.millis("eval.step"), settings.millis("window.grace"), 0,
                settings.millis("window.max-upstream-lag"), false);
    }

    /** One target group's monitor behind its clock, fed as the live topology feeds it: a record, then its upstream's report. */
    private final class Run implements MonitorClock.Stage<HealthCheckResult> {
        final Monitored<FleetState> state;
        final MonitorClock<HealthCheckResult> clock;
        final List<Notification> sent = new ArrayList<>();

        Run(Monitored<FleetState> state, MonitorClock<HealthCheckResult> clock) {
            this.state = state;
            this.clock = clock;
        }

        void read(HealthCheckResult r) {
            long ts = r.getTs().toEpochMilli();
            clock.offer("tg-0", r, ts, 0, this);
            clock.report(upstream(r), ts, false, 0, this);
        }

        void endOfInput() {
            for (String u : List.of("health-0", "health-1", "health-2")) {
                clock.report(u, T0 + 300_000, true, 0, this);
            }
        }

        Set<String> ids() {
            return sent.stream().filter(n -> n.dedupKey().equals(KEY)).map(Notification::alertId).collect(Collectors.toSet());
        }

        Snapshot snapshot() {
            Map<String, Upstreams.Upstream> upstreams = new LinkedHashMap<>();
            clock.upstreams().table().forEach((id, u) -> {
                Upstreams.Upstream copy = new Upstreams.Upstream();
                copy.time = u.time;
                copy.idle = u.idle;
                upstreams.put(id, copy);
            });
            return new Snapshot(codec.encode(state), clock.watermark(), clock.lastStep(), upstreams, clock.held());
        }

        @Override
        public void apply(String key, HealthCheckResult r, long time, boolean late) {
            sent.addAll(monitor.onCheck(state, r));
        }

        @Override
        public void step(long at) {
            sent.addAll(monitor.reach(state, at));
        }
    }

    private record Snapshot(byte[] state, long watermark, long lastStep, Map<String, Upstreams.Upstream> upstreams,
                            List<MonitorClock.Held<HealthCheckResult>> held) {
    }

    private Run restore(Snapshot s) {
        MonitorClock<HealthCheckResult> clock = clock();
        clock.restore(s.watermark(), s.lastStep(), s.upstreams(), s.held(), 0);
        return new Run(codec.decode(s.state()), clock);
    }

    private static String upstream(HealthCheckResult r) {
        // targets spread over three partitions, two failing ones on each
        return "health-" + Integer.parseInt(r.getTarget().substring(r.getTarget().lastIndexOf('-') + 1)) % 3;
    }

    private static List<HealthCheckResult> checks(long from, long to, boolean failing) {
        List<HealthCheckResult> out = new ArrayList<>();
        for (long t = from; t < to; t += 5_000) {
            for (int i = 0; i < TARGETS; i++) {
                boolean fails = failing && i % 2 == 0;
                HealthCheckResult.Builder b = fails
                        ? Checks.check("tg-0", "i-0-" + i, Checks.zone(i, 3), t + i * 13L, CheckOutcome.timeout, 2001)
                                .setState(TargetState.unhealthy)
                        : Checks.check("tg-0", "i-0-" + i, Checks.zone(i, 3), t + i * 13L, CheckOutcome.pass, 120 + i)
                                .setState(TargetState.healthy);
                out.add(b.setCheck(Checks.checkConfig(2000, 5000)).build());
            }
        }
        return out;
    }
}
