package io.hcwatch.bench;

import io.hcwatch.avro.v1.AlbRequest;
import java.time.Instant;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The straightforward way to read ALB access logs: one java.util.regex in the style of the Athena
 * CREATE TABLE, optional groups for the fields added over the years, then the usual conversions.
 * It exists only as the baseline for {@link AlbParseBenchmark}.
 */
public final class RegexAlbParser {

    private static final String Q = "\"([^\"]*)\"";
    private static final Pattern LINE = Pattern.compile("^(\\S+) (\\S+) (\\S+) (\\S+) (\\S+) (\\S+) (\\S+) (\\S+) "
            + "(\\S+) (\\S+) (\\S+) (\\S+) " + Q + " " + Q + " (\\S+) (\\S+) (\\S+) " + Q + " " + Q + " " + Q
            + "(?: (\\S+))?(?: (\\S+))?(?: " + Q + ")?(?: " + Q + ")?(?: " + Q + ")?(?: " + Q + ")?(?: " + Q + ")?"
            + "(?: " + Q + ")?(?: " + Q + ")?(?: (\\S+))?(?: " + Q + ")?(?: " + Q + ")?(?: " + Q + ")?.*$");

    /** @return null when the line does not match */
    public AlbRequest parse(String line) {
        Matcher m = LINE.matcher(line);
        if (!m.matches()) {
            return null;
        }
        String type = m.group(1);
        if (!type.matches("https?|h2|grpcs|wss?")) {
            return null;
        }
        String client = m.group(4);
        String target = m.group(5);
        String request = text(m.group(13));
        String[] parts = request == null ? new String[3] : splitRequest(request);
        String arn = text(m.group(17));
        int fields = 20;
        for (int g = 21; g <= 33; g++) {
            if (m.group(g) != null) {
                fields = g;
            }
        }
        return new AlbRequest(type, Instant.parse(m.group(2)), m.group(3), ip(client), port(client), ip(target),
                port(target), seconds(m.group(6)), seconds(m.group(7)), seconds(m.group(8)), integer(m.group(9)),
                integer(m.group(10)), count(m.group(11)), count(m.group(12)), request, parts[0], parts[1], parts[2],
                text(m.group(14)), text(m.group(15)), text(m.group(16)), arn, arn == null ? null
                : arn.replaceFirst(".*:targetgroup/([^/]+)/.*", "$1"), text(m.group(18)), text(m.group(19)),
                text(m.group(20)), integer(m.group(21)), m.group(22) == null || m.group(22).equals("-") ? null
                : Instant.parse(m.group(22)), text(m.group(23)), text(m.group(24)), text(m.group(25)), text(m.group(26)),
                text(m.group(27)), text(m.group(28)), text(m.group(29)), text(m.group(30)), text(m.group(31)),
                text(m.group(32)), text(m.group(33)), fields);
    }

    private static String[] splitRequest(String request) {
        int first = request.indexOf(' ');
        int last = request.lastIndexOf(' ');
        if (first < 0) {
            return new String[] {text(request), null, null};
        }
        if (last == first) {
            return new String[] {text(request.substring(0, first)), text(request.substring(first + 1)), null};
        }
        return new String[] {text(request.substring(0, first)), text(request.substring(first + 1, last)),
            text(request.substring(last + 1))};
    }

    private static String text(String v) {
        return v == null || v.equals("-") || v.isEmpty() ? null : v;
    }

    private static String ip(String hostPort) {
        if (hostPort.equals("-")) {
            return null;
        }
        String host = hostPort.substring(0, hostPort.lastIndexOf(':'));
        return host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    }

    private static Integer port(String hostPort) {
        return hostPort.equals("-") ? null : Integer.valueOf(hostPort.substring(hostPort.lastIndexOf(':') + 1));
    }

    private static Double seconds(String v) {
        return v.equals("-1") || v.equals("-") ? null : Double.valueOf(v);
    }

    private static Integer integer(String v) {
        return v == null || v.equals("-") || v.equals("-1") ? null : Integer.valueOf(v);
    }

    private static Long count(String v) {
        return v.equals("-") || v.equals("-1") ? null : Long.valueOf(v);
    }
}
