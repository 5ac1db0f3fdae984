package io.hcwatch.collect.haproxy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * HAProxy's stats CSV ({@code show stat}, the stats page's {@code ;csv}): a {@code # name,name,...}
 * header and one row per proxy, server and listener. Columns are found by header name, never by
 * position, so versions with more or fewer columns read the same. Fields that hold a comma or a
 * quote are quoted with doubled quotes (HAProxy's csv_enc). A row with another field count than
 * the header is a truncated or corrupt answer: the whole table is refused.
 */
final class Csv {

    private final Map<String, Integer> columns;
    private final List<String[]> rows;

    private Csv(Map<String, Integer> columns, List<String[]> rows) {
        this.columns = columns;
        this.rows = rows;
    }

    static Csv parse(String text) throws PollException {
        if (!text.startsWith("# ")) {
            throw new PollException(PollException.Reasons.UNKNOWN_FORMAT,
                    "expected the stats CSV header '# pxname,svname,...', got '" + shown(text) + "'");
        }
        int lineEnd = text.indexOf('\n');
        if (lineEnd < 0) {
            throw new PollException(PollException.Reasons.TRUNCATED, "the stats CSV ends inside its header");
        }
        String[] header = split(text, 2, lineEnd, -1);
        Map<String, Integer> columns = new HashMap<>();
        for (int i = 0; i < header.length; i++) {
            columns.putIfAbsent(header[i], i);
        }
        if (!columns.containsKey("pxname") || !columns.containsKey("svname")) {
            throw new PollException(PollException.Reasons.UNKNOWN_FORMAT,
                    "the stats CSV header names no pxname/svname: '" + shown(text.substring(0, lineEnd)) + "'");
        }
        List<String[]> rows = new ArrayList<>();
        int at = lineEnd + 1;
        int lineNo = 1;
        while (at < text.length()) {
            int end = text.indexOf('\n', at);
            lineNo++;
            if (end < 0) {
                throw new PollException(PollException.Reasons.TRUNCATED,
                        "the stats CSV ends inside line " + lineNo + ": '" + shown(text.substring(at)) + "'");
            }
            if (end > at) {
                rows.add(split(text, at, end, header.length));
                if (rows.get(rows.size() - 1).length != header.length) {
                    throw new PollException(PollException.Reasons.TRUNCATED, "line " + lineNo + " of the stats CSV has "
                            + rows.get(rows.size() - 1).length + " fields, the header " + header.length + ": '"
                            + shown(text.substring(at, end)) + "'");
                }
            }
            at = end + 1;
        }
        return new Csv(columns, rows);
    }

    List<String[]> rows() {
        return rows;
    }

    /** @return the column's index, or -1 when this HAProxy does not report it */
    int optional(String name) {
        return columns.getOrDefault(name, -1);
    }

    int required(String name) throws PollException {
        Integer i = columns.get(name);
        if (i == null) {
            throw new PollException(PollException.Reasons.MISSING_COLUMN, "the stats CSV has no '" + name + "' column");
        }
        return i;
    }

    /** Fields of text[from, to), unquoting quoted ones. */
    private static String[] split(String text, int from, int to, int expected) {
        List<String> fields = new ArrayList<>(Math.max(expected, 16));
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < to && text.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    field.append(c);
                }
            } else if (c == '"' && field.length() == 0) {
                quoted = true;
            } else if (c == ',') {
                fields.add(field.toString());
                field.setLength(0);
            } else {
                field.append(c);
            }
        }
        fields.add(field.toString());
        return fields.toArray(new String[0]);
    }

    /** A non-negative whole number; HAProxy leaves a field empty when it does not apply. */
    static long number(String what, String text) throws PollException {
        long v = 0;
        if (text.isEmpty() || text.length() > 18) {
            throw badNumber(what, text);
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                throw badNumber(what, text);
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    private static PollException badNumber(String what, String text) {
        return new PollException(PollException.Reasons.BAD_VALUE, what + " held '" + shown(text) + "', expected a whole number >= 0");
    }

    /** At most 80 characters of {@code text}, control characters escaped, for error messages. */
    static String shown(String text) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < text.length() && sb.length() < 80; i++) {
            char c = text.charAt(i);
            if (c == '\n') {
                sb.append("\\n");
            } else if (c < ' ') {
                sb.append(String.format("\\x%02x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return text.length() > sb.length() ? sb + "..." : sb.toString();
    }
}
