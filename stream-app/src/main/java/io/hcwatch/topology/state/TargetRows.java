package io.hcwatch.topology.state;

import io.hcwatch.detect.fleet.Registry;
import io.hcwatch.detect.fleet.TargetRecord;
import java.util.Arrays;
import java.util.Map;

/**
 * A target group's targets ({@code t}, {@code u}) and those that left ({@code d}) written from the
 * live records: the bytes {@link TargetParts} cuts from the value's tree, column for column.
 */
final class TargetRows {

    private static final int REST = TargetParts.TARGET_REST.length;
    private static final int MOVES = TargetParts.TARGET_MOVES.length;

    /** A target's fields are the columns (but the first, its key): one more would be lost here, where the tree's rows refuse it. */
    private static final BeanJson TARGET_FIELDS = BeanJson.of(TargetRecord.class)
            .expect(Arrays.copyOfRange(TargetParts.TARGET_ALL, 1, TargetParts.TARGET_ALL.length));

    private TargetRows() {
    }

    static void write(Registry registry, Map<String, byte[]> parts) {
        Map<String, TargetRecord> targets = registry.targets;
        if (targets != null && !targets.isEmpty()) {
            RowWriter rest = rows(targets.size());
            for (Map.Entry<String, TargetRecord> e : targets.entrySet()) {
                rest.row(REST);
                rest(rest, e.getKey(), e.getValue());
            }
            parts.put("t", rest.bytes());
            RowWriter moves = rows(targets.size());
            for (TargetRecord t : targets.values()) {
                moves.row(MOVES);
                moves(moves, 0, t);
            }
            parts.put("u", moves.bytes());
        }
        Map<String, TargetRecord> departed = registry.departed;
        if (departed != null && !departed.isEmpty()) {
            RowWriter all = rows(departed.size());
            for (Map.Entry<String, TargetRecord> e : departed.entrySet()) {
                all.row(REST + MOVES);
                rest(all, e.getKey(), e.getValue());
                moves(all, REST, e.getValue());
            }
            parts.put("d", all.bytes());
        }
    }

    private static RowWriter rows(int n) {
        RowWriter out = new RowWriter(PartedMonitoredCodec.FRAME);
        out.varint(n);
        return out;
    }

    /** Columns of {@link TargetParts#TARGET_REST}, in order. */
    private static void rest(RowWriter out, String key, TargetRecord t) {
        out.text(0, key);
        out.optionalText(1, t.id);
        out.optionalText(2, t.ip);
        out.integer(3, t.port);
        out.optionalText(4, t.zone);
        out.optionalText(5, t.source);
        out.integer(6, t.firstSeen);
        out.integer(7, t.registeredAt);
        out.optionalText(8, t.state);
        out.bool(9, t.sawInitial);
        out.integer(10, t.firstHealthyAt);
        out.optionalText(11, t.lastOutcome);
        out.integer(12, t.firstFailureAt);
        out.integer(13, t.firstPassAt);
        out.optionalText(14, t.lastReason);
        out.integer(15, t.lastStatusCode);
        out.integer(16, t.firstLatencyMs);
        out.integer(17, t.unhealthySince);
        out.integer(18, t.departedAt);
    }

    /** Columns of {@link TargetParts#TARGET_MOVES}, in order, from column {@code at}. */
    private static void moves(RowWriter out, int at, TargetRecord t) {
        out.integer(at, t.lastSeen);
        out.integer(at + 1, t.lastPassAt);
        out.integer(at + 2, t.lastFailureAt);
        out.integer(at + 3, t.consecutivePasses);
        out.integer(at + 4, t.consecutiveFailures);
        out.integer(at + 5, t.lastLatencyMs);
    }
}
