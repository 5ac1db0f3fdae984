package io.hcwatch.collect.haproxy;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The process block of the HTML stats page, for setups that expose only the page: its CSV has no
 * process figures. The block reads (tags removed) {@code pid = 14399 (process #1, ...)},
 * {@code uptime = 0d 0h00m10s}, {@code maxsock = 2037; maxconn = 1000; ...} and
 * {@code current conns = 1; current pipes = 0/0; conn rate = 2/sec; ...}, the same since HAProxy 1.5.
 */
final class StatsPageInfo {

    private static final Pattern TAG = Pattern.compile("<[^>]*>");
    private static final Pattern PID = Pattern.compile("\\bpid = +(\\d+)");
    private static final Pattern UPTIME = Pattern.compile("\\buptime = +(\\d+)d +(\\d+)h(\\d+)m(\\d+)s");
    private static final Pattern MAXCONN = Pattern.compile("\\bmaxconn = +(\\d+)");
    private static final Pattern CURRENT = Pattern.compile("\\bcurrent conns = +(\\d+)");
    private static final Pattern RATE = Pattern.compile("\\bconn rate = +(\\d+)/sec");

    private StatsPageInfo() {
    }

    static ProcessInfo parse(String html) throws PollException {
        String text = TAG.matcher(html).replaceAll(" ");
        Matcher uptime = UPTIME.matcher(text);
        if (!uptime.find()) {
            throw missing("uptime", html);
        }
        long seconds = ((Long.parseLong(uptime.group(1)) * 24 + Long.parseLong(uptime.group(2))) * 60
                + Long.parseLong(uptime.group(3))) * 60 + Long.parseLong(uptime.group(4));
        Matcher rate = RATE.matcher(text);
        return new ProcessInfo((int) number(PID, "pid", text, html), seconds, (int) number(MAXCONN, "maxconn", text, html),
                (int) number(CURRENT, "current conns", text, html), rate.find() ? Integer.parseInt(rate.group(1)) : null,
                null, null, null);
    }

    private static long number(Pattern p, String name, String text, String html) throws PollException {
        Matcher m = p.matcher(text);
        if (!m.find()) {
            throw missing(name, html);
        }
        return Csv.number("stats page " + name, m.group(1));
    }

    private static PollException missing(String name, String html) {
        return new PollException(PollException.Reasons.UNKNOWN_FORMAT,
                "the stats page has no '" + name + " = ...' in its process block: '" + Csv.shown(html) + "'");
    }
}
