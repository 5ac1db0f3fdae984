package io.hcwatch.parse;

import io.hcwatch.avro.v1.BackendStats;
import io.hcwatch.avro.v1.FrontendStats;
import io.hcwatch.avro.v1.HaproxyStats;
import io.hcwatch.avro.v1.SlotHolder;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSON form of {@link HaproxyStats}, as {@code collect haproxy} writes it with {@code format=json}:
 * Avro field names, {@code ts} ISO-8601 with a zone (epoch milliseconds accepted too), one object
 * per frontend and per backend. Required: {@code ts, host}, and each frontend's {@code name, scur};
 * the rest optional, unknown fields ignored. Counts are never negative: a negative delta is a
 * collector bug (it must not publish deltas across a reload) and is refused, not clamped.
 */
public final class HaproxyStatsJson implements LineParser<HaproxyStats> {

    private static final int MAX = Integer.MAX_VALUE;

    @Override
    public ParseResult<HaproxyStats> parse(String json) {
        if (json == null || json.isBlank()) {
            return ParseResult.rejected(RejectReason.EMPTY, "input is empty");
        }
        try {
            JsonFields f = JsonFields.parseObject(json);
            String host = f.string("host", true);
            if (host.indexOf('/') >= 0) {
                return ParseResult.rejected(RejectReason.BAD_FIELD, Rejections.describe("field 'host'", host, "a host name without '/'"));
            }
            List<FrontendStats> frontends = new ArrayList<>();
            for (JsonFields fe : f.objects("frontends")) {
                frontends.add(new FrontendStats(fe.string("name", true), fe.string("status", false), fe.requiredWhole("scur", 0, MAX),
                        fe.nonNegative("slim"), orZero(fe.nonNegative("smax")), fe.nonNegative("qcur"), orZero(fe.nonNegative("rate")),
                        fe.nonNegative("req_rate"), fe.nonNegative("conn_rate"), count(fe, "stot_delta"), count(fe, "ereq_delta"),
                        count(fe, "dreq_delta"), count(fe, "dcon_delta"), holders(fe), fe.nonNegative("sessions_listed")));
            }
            List<BackendStats> backends = new ArrayList<>();
            for (JsonFields be : f.objects("backends")) {
                backends.add(new BackendStats(be.string("name", true), be.string("status", false), orZero(be.nonNegative("scur")),
                        be.nonNegative("qcur"), be.nonNegative("active_servers"), be.nonNegative("backup_servers"),
                        count(be, "stot_delta"), count(be, "econ_delta"), count(be, "eresp_delta")));
            }
            Boolean reloaded = f.bool("reloaded");
            return ParseResult.ok(new HaproxyStats(f.instant("ts", true), host, f.nonNegative("pid"), f.wholeLong("uptime_sec", 0, Long.MAX_VALUE),
                    reloaded != null && reloaded, f.wholeLong("interval_ms", 0, Long.MAX_VALUE), f.nonNegative("curr_conns"),
                    f.nonNegative("maxconn"), f.nonNegative("conn_rate"), f.nonNegative("sess_rate"), f.nonNegative("run_queue"),
                    f.whole("idle_pct", 0, 100), frontends, backends));
        } catch (JsonFields.Invalid invalid) {
            return ParseResult.rejected(invalid.reason, invalid.getMessage());
        }
    }

    /** null when the poll names no holders (absent, null or empty: the monitor reads all three alike). */
    private static List<SlotHolder> holders(JsonFields fe) {
        List<JsonFields> items = fe.objects("holders");
        if (items.isEmpty()) {
            return null;
        }
        List<SlotHolder> holders = new ArrayList<>(items.size());
        for (JsonFields h : items) {
            holders.add(new SlotHolder(h.string("source", true), h.requiredWhole("sessions", 0, MAX)));
        }
        return holders;
    }

    private static Long count(JsonFields f, String name) {
        return f.wholeLong(name, 0, Long.MAX_VALUE);
    }

    private static int orZero(Integer n) {
        return n == null ? 0 : n;
    }
}
