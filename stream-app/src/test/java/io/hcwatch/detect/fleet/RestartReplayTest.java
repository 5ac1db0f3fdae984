package io.hcwatch.detect.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.alert.Notification;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.config.Settings;
import io.hcwatch.detect.AlertType;
import io.hcwatch.topology.state.JsonStateCodec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What an at-least-once restart does to a target group's state: the state comes back from its
 * last snapshot, the input after that snapshot is read again (some of it twice, since upstream
 * tasks replay too), then the incident ends. Whatever the crash point, the episode resolves.
 */
class RestartReplayTest {

    private static final long T0 = Checks.T0;
    private static final int TARGETS = 12;
    private final Settings settings = Settings.defaults();
    private final FleetMonitor monitor = new FleetMonitor(settings);
    private final JsonStateCodec<FleetState> codec = new JsonStateCodec<>(FleetState.class);

    @ParameterizedTest(name = "partitions caught up one after another: {0}")
    @ValueSource(booleans = {false, true})
    void theEpisodeResolvesWhereverTheCrashFallsAndHowEverMuchIsReplayed(boolean bursts) {
        List<HealthCheckResult> incident = new ArrayList<>(checks(T0, T0 + 60_000, false));
        incident.addAll(checks(T0 + 60_000, T0 + 100_000, true));
        List<HealthCheckResult> recovery = checks(T0 + 100_000, T0 + 200_000, false);
        int firstFailing = TARGETS * 12;
        for (int crash = firstFailing; crash <= incident.size(); crash += 7) {
            for (int snapshotLag : new int[] {0, 5, 30}) {
                for (int upstreamLag : new int[] {0, 12, 40}) {
                    int snapshotAt = Math.max(0, crash - snapshotLag);
                    FleetState s = monitor.newState("tg-0");
                    byte[] snapshot = null;
                    for (int i = 0; i < crash; i++) {
                        if (i == snapshotAt) {
                            snapshot = codec.encode(s);
                        }
                        monitor.onCheck(s, incident.get(i), upstream(incident.get(i)));
                    }
                    if (snapshot == null) {
                        snapshot = codec.encode(s);
                    }
                    FleetState restored = codec.decode(snapshot);
                    List<Notification> after = new ArrayList<>();
                    for (int i = snapshotAt; i < crash; i++) {
                        after.addAll(monitor.onCheck(restored, incident.get(i), upstream(incident.get(i))));
                    }
                    List<HealthCheckResult> rest = new ArrayList<>(incident.subList(Math.max(0, crash - upstreamLag), incident.size()));
                    rest.addAll(recovery);
                    if (bursts) {
                        // a catch-up reads each partition's backlog in one go, one partition after the other
                        rest.sort(java.util.Comparator.comparing(RestartReplayTest::upstream));
                    }
                    long streamTime = 0;
                    for (HealthCheckResult r : rest) {
                        after.addAll(monitor.onCheck(restored, r, upstream(r)));
                        // other target groups in the same task move stream time a little further
                        streamTime = Math.max(streamTime, r.getTs().toEpochMilli() + 5_000);
                        after.addAll(monitor.onStreamTime(restored, streamTime));
                    }
                    boolean firing = restored.alerts.isFiring("correlated_failure/tg-0");
                    assertThat(firing).as("crash at %d, snapshot %d behind, upstream replays %d: still firing after %s",
                            crash, snapshotLag, upstreamLag, after.stream()
                                    .filter(n -> n.type() == AlertType.CORRELATED_FAILURE)
                                    .map(n -> (n.firing() ? "firing " : "resolved ") + n.summary()).toList())
                            .isFalse();
                }
            }
        }
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
