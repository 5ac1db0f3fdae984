package io.hcwatch.collect.haproxy;

import io.hcwatch.avro.v1.CheckConfig;
import io.hcwatch.collect.haproxy.cfg.ServerCheckConfig;
import java.util.Collection;
import java.util.Objects;
import java.util.function.Function;

/**
 * The check settings a backend's HealthCheckResults carry. The stream app keeps one set of settings
 * per target group (a backend), and reads a change of them as a reconfiguration: so every server of
 * a backend carries the same values, and a value its checked servers do not agree on (one server
 * with its own {@code inter}) is left out rather than alternating between servers.
 */
final class CheckConfigs {

    private CheckConfigs() {
    }

    /** The backend's settings from haproxy.cfg; null when it has no checked server there. */
    static CheckConfig backend(Collection<ServerCheckConfig> servers) {
        var checked = servers.stream().filter(ServerCheckConfig::checked).toList();
        if (checked.isEmpty()) {
            return null;
        }
        return new CheckConfig(agreed(checked, ServerCheckConfig::httpPath), agreed(checked, ServerCheckConfig::interMs),
                agreed(checked, ServerCheckConfig::timeoutMs), agreed(checked, ServerCheckConfig::rise),
                agreed(checked, ServerCheckConfig::fall));
    }

    /** Without the configuration: the thresholds the stats show for this server. */
    static CheckConfig fromStats(Snapshot.Server sv) {
        return sv.rise() == null && sv.fall() == null ? null : new CheckConfig(null, null, null, sv.rise(), sv.fall());
    }

    private static <T> T agreed(Collection<ServerCheckConfig> servers, Function<ServerCheckConfig, T> field) {
        T first = field.apply(servers.iterator().next());
        return servers.stream().allMatch(s -> Objects.equals(field.apply(s), first)) ? first : null;
    }
}
