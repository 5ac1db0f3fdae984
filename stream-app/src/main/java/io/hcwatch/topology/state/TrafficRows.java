package io.hcwatch.topology.state;

import io.hcwatch.detect.fleet.FleetState;
import io.hcwatch.detect.fleet.ServedWindow;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A target group's traffic ({@code w}) and served window ({@code s/N} for each slot index, then
 * {@code s}) written from the live objects: the bytes {@link TrafficParts} cuts from the value's tree.
 */
final class TrafficRows {

    /** A target's fields are the columns of its rows: one more would be lost here, where the tree's split refuses it. */
    private static final BeanJson SERVED_FIELDS = BeanJson.of(ServedWindow.Served.class)
            .expect("slotStart", "requests", "failed", "lastAt", "latency");
    /** A target's latency sketches as stored: encoded on each read. */
    private static final Function<Object, Object> LATENCY = SERVED_FIELDS.reader("latency");
    private static final BeanJson WINDOW_HEAD = BeanJson.of(ServedWindow.class).without("byTarget");

    private TrafficRows() {
    }

    static void write(FleetState state, Map<String, byte[]> parts) {
        if (state.traffic != null) {
            parts.put("w", JsonBytes.value(PartedMonitoredCodec.FRAME, state.traffic));
        }
        ServedWindow served = state.served;
        if (served == null) {
            return;
        }
        if (served.byTarget == null) {
            parts.put("s", JsonBytes.write(PartedMonitoredCodec.FRAME, (g, p) -> WINDOW_HEAD.writeObject(served, g, p)));
            return;
        }
        int count = served.byTarget.size();
        String[] names = new String[count];
        ServedWindow.Served[] targets = new ServedWindow.Served[count];
        String[][] latency = new String[count][];
        RowWriter targetRows = new RowWriter();
        targetRows.varint(count);
        int ring = 0;
        int k = 0;
        for (Map.Entry<String, ServedWindow.Served> e : served.byTarget.entrySet()) {
            names[k] = e.getKey();
            targets[k] = e.getValue();
            @SuppressWarnings("unchecked")
            List<String> sketches = (List<String>) LATENCY.apply(targets[k]);
            latency[k] = sketches == null ? new String[0] : sketches.toArray(new String[0]);
            ring = Math.max(ring, ArrayCells.length(targets[k].slotStart));
            targetRows.row(TrafficParts.SERVED_TARGET.length);
            targetRows.text(0, names[k]);
            targetRows.integer(1, targets[k].lastAt);
            k++;
        }
        for (int i = 0; i < ring; i++) {
            writeSlot(i, names, targets, latency, parts);
        }
        int slots = ring;
        String targetsText = Base64.getEncoder().encodeToString(targetRows.bytes());
        BeanJson head = WINDOW_HEAD.then((v, g, p) -> {
            g.writeNumberField("ring", slots);
            g.writeStringField("targets", targetsText);
        });
        parts.put("s", JsonBytes.write(PartedMonitoredCodec.FRAME, (g, p) -> head.writeObject(served, g, p)));
    }

    /** Slot {@code i} of every target that has something there: one part, if any has. */
    private static void writeSlot(int i, String[] names, ServedWindow.Served[] targets, String[][] latency,
            Map<String, byte[]> parts) {
        int rows = 0;
        for (int t = 0; t < targets.length; t++) {
            rows += holds(targets[t], latency[t], i) ? 1 : 0;
        }
        if (rows == 0) {
            return;
        }
        RowWriter out = new RowWriter(PartedMonitoredCodec.FRAME);
        out.varint(rows);
        for (int t = 0; t < targets.length; t++) {
            if (holds(targets[t], latency[t], i)) {
                ServedWindow.Served s = targets[t];
                out.row(TrafficParts.SERVED_SLOT.length);
                out.text(0, names[t]);
                out.integer(1, s.slotStart[i]);
                out.integer(2, s.requests[i]);
                out.integer(3, s.failed[i]);
                String sketch = sketch(latency[t], i);
                if (sketch == null) {
                    out.nullValue(4);
                } else {
                    out.text(4, sketch);
                }
            }
        }
        parts.put("s/" + i, out.bytes());
    }

    private static boolean holds(ServedWindow.Served s, String[] latency, int i) {
        return ArrayCells.length(s.slotStart) > i
                && (s.slotStart[i] != Long.MIN_VALUE || s.requests[i] != 0 || s.failed[i] != 0 || sketch(latency, i) != null);
    }

    private static String sketch(String[] latency, int i) {
        return i < latency.length ? latency[i] : null;
    }
}
