package io.hcwatch.bench;

import io.hcwatch.avro.v1.HaproxyLogFormat;
import io.hcwatch.avro.v1.HaproxyRequest;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The straightforward way to read HAProxy's option-httplog lines behind an RFC 3164 prefix: one
 * java.util.regex (close to logstash's HAPROXYHTTP) and DateTimeFormatter for the accept date.
 * It exists only as the baseline for {@link HaproxyParseBenchmark}.
 */
public final class RegexHaproxyParser {

    private static final Pattern LINE = Pattern.compile("^(?:\\w{3} +\\d+ \\d\\d:\\d\\d:\\d\\d (\\S+) (\\w+)\\[(\\d+)\\]: )?"
            + "(\\S+):(\\d+) \\[([^\\]]+)\\] (\\S+?)(~)? (\\S+?)/(\\S+) (-?\\d+)/(-?\\d+)/(-?\\d+)/(-?\\d+)/(\\+)?(-?\\d+) "
            + "(-?\\d+) (\\+)?(\\d+) (\\S+) (\\S+) (\\S+) (\\d+)/(\\d+)/(\\d+)/(\\d+)/(\\+)?(\\d+) (\\d+)/(\\d+)"
            + "(?: \\{([^}]*)\\})?(?: \\{([^}]*)\\})? \"(\\S+)(?: (.*?))?(?: (HTTP/\\S+))?\".*$");
    private static final DateTimeFormatter ACCEPT_DATE =
            DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss.SSS", Locale.ENGLISH);

    /** @return null when the line does not match */
    public HaproxyRequest parse(String line) {
        Matcher m = LINE.matcher(line);
        if (!m.matches()) {
            return null;
        }
        return new HaproxyRequest(HaproxyLogFormat.http,
                LocalDateTime.parse(m.group(6), ACCEPT_DATE).toInstant(ZoneOffset.UTC), m.group(1), m.group(2),
                m.group(3) == null ? null : Integer.valueOf(m.group(3)), m.group(4).equals("-") ? null : m.group(4),
                Integer.valueOf(m.group(5)), m.group(7), m.group(8) != null, null, m.group(9), m.group(10),
                timer(m.group(11)), timer(m.group(12)), timer(m.group(13)), timer(m.group(14)), timer(m.group(16)),
                m.group(15) != null, timer(m.group(17)), Long.valueOf(m.group(19)), m.group(18) != null,
                dash(m.group(20)), dash(m.group(21)), m.group(22), Integer.valueOf(m.group(23)),
                Integer.valueOf(m.group(24)), Integer.valueOf(m.group(25)), Integer.valueOf(m.group(26)),
                Integer.valueOf(m.group(28)), m.group(27) != null, Integer.valueOf(m.group(29)),
                Integer.valueOf(m.group(30)), m.group(31), m.group(32), m.group(33), m.group(34), m.group(35), null);
    }

    private static Integer timer(String v) {
        int t = Integer.parseInt(v);
        return t == -1 ? null : t;
    }

    private static String dash(String v) {
        return v.equals("-") ? null : v;
    }
}
