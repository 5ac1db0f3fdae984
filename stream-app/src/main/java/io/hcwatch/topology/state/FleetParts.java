package io.hcwatch.topology.state;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;

/**
 * A target group stored in parts, so that a commit rewrites what its checks changed:
 * <ul>
 * <li>{@code c}: its clock and where its step history's ring stands (every commit that touched it);
 *     {@code h/N}: the ring in chunks of {@value ClockParts#HISTORY_CHUNK} entries ({@link ClockParts});
 * <li>{@code u}: what each check moves of every target; {@code t}: the rest of each target,
 *     rewritten only when one of them changes state, joins or leaves; {@code d}: the targets that
 *     left ({@link TargetParts});
 * <li>{@code l/N}: slot N of the all, failing and passing latency windows: a check rewrites the
 *     live slot only ({@link LatencyParts});
 * <li>{@code w}, {@code s}, {@code s/N}: traffic counts and per-target served windows, from access
 *     logs ({@link TrafficParts});
 * <li>{@code m}: the head, everything else (pool, settings, zones, alerts): seldom changes.
 * </ul>
 */
final class FleetParts implements StateSplit {

    /** In the order their parts have always been written: a commit writes them in this order. */
    private static final List<StateSplit> FAMILIES = List.of(new ClockParts(), new TargetParts(), new LatencyParts(),
            new TrafficParts());

    @Override
    public void split(ObjectNode tree, Map<String, byte[]> parts) {
        for (StateSplit family : FAMILIES) {
            family.split(tree, parts);
        }
    }

    @Override
    public void join(ObjectNode tree, Map<String, byte[]> parts) {
        for (StateSplit family : FAMILIES) {
            family.join(tree, parts);
        }
    }
}
