package io.hcwatch.collect.haproxy;

import java.util.HashMap;
import java.util.Map;

/** Reads {@code show info}: one {@code Name: value} per line, looked up by name. */
final class ShowInfo {

    private ShowInfo() {
    }

    static ProcessInfo parse(String text) throws PollException {
        Map<String, String> fields = new HashMap<>();
        for (String line : text.split("\n")) {
            int colon = line.indexOf(": ");
            if (colon > 0) {
                fields.put(line.substring(0, colon), line.substring(colon + 2).strip());
            }
        }
        if (!fields.containsKey("Pid") && !fields.containsKey("Uptime_sec")) {
            throw new PollException(PollException.Reasons.UNKNOWN_FORMAT,
                    "show info answered without Pid or Uptime_sec: '" + Csv.shown(text) + "'");
        }
        return new ProcessInfo(
                (int) required(fields, "Pid"), required(fields, "Uptime_sec"), (int) required(fields, "Maxconn"),
                (int) required(fields, "CurrConns"), optional(fields, "ConnRate"), optional(fields, "SessRate"),
                optional(fields, "Run_queue"), optional(fields, "Idle_pct"));
    }

    private static long required(Map<String, String> fields, String name) throws PollException {
        String v = fields.get(name);
        if (v == null) {
            throw new PollException(PollException.Reasons.MISSING_COLUMN, "show info has no " + name);
        }
        return Csv.number("show info " + name, v);
    }

    private static Integer optional(Map<String, String> fields, String name) throws PollException {
        String v = fields.get(name);
        return v == null || v.isEmpty() ? null : (int) Csv.number("show info " + name, v);
    }
}
