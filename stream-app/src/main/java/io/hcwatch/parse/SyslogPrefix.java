package io.hcwatch.parse;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * What precedes an HAProxy message: syslog header, program tag, console level. Its timestamp is
 * kept as fields and only turned into an {@link Instant} when a message needs it, because traffic
 * lines use HAProxy's own accept date and most prefixes carry no year.
 *
 * @param bodyStart    offset where the HAProxy message starts
 * @param recognised   whether any prefix was found (a bare line has none)
 * @param year         -1 when the timestamp has no year (RFC 3164, console day-of-year)
 * @param month        1-12, or -1 when the timestamp is day-of-year based or absent
 * @param dayOfYear    1-366 for the console form {@code 256/135735}, else -1
 * @param offsetSeconds the UTC offset the timestamp was written with, or null when it had none
 */
record SyslogPrefix(int bodyStart, boolean recognised, String host, String program, Integer pid,
                    boolean hasTimestamp, int year, int month, int day, int dayOfYear,
                    int hour, int minute, int second, int nanos, Integer offsetSeconds) {

    static SyslogPrefix none() {
        return new SyslogPrefix(0, false, null, null, null, false, -1, -1, -1, -1, 0, 0, 0, 0, null);
    }

    /** The zone HAProxy's own dates on this line are in: the prefix's offset, else the clock's zone. */
    ZoneId zone(Clock clock) {
        return offsetSeconds != null ? ZoneOffset.ofTotalSeconds(offsetSeconds) : clock.getZone();
    }

    /**
     * The prefix time. Without a year it is in {@code dates.year()} when that is set, else the most
     * recent such date not later than one day after the clock's now (so a December line read in
     * January lands in December of last year). Without any timestamp the clock's now is used: the
     * line's time is then only known by its arrival.
     *
     * @return null when the fields name no real date (e.g. Feb 29 in no nearby year, or not in the given year)
     */
    Instant instant(LogDates dates) {
        Clock clock = dates.clock();
        if (!hasTimestamp) {
            return clock.instant();
        }
        ZoneId zone = zone(clock);
        if (year > 0) {
            return toInstant(year, month, day, zone);
        }
        if (dates.year() != null) {
            return inYear(dates.year(), zone);
        }
        Instant now = clock.instant();
        int thisYear = LocalDateTime.ofInstant(now, zone).getYear();
        Instant latest = now.plusSeconds(86_400);
        for (int y = thisYear + 1; y >= thisYear - 8; y--) {
            Instant candidate = inYear(y, zone);
            if (candidate != null && !candidate.isAfter(latest)) {
                return candidate;
            }
        }
        return null;
    }

    /** This year-less date in year {@code y}, or null when it does not exist there (Feb 29, day 366). */
    private Instant inYear(int y, ZoneId zone) {
        int m = month;
        int d = day;
        if (dayOfYear > 0) {
            if (dayOfYear > (CivilTime.isLeap(y) ? 366 : 365)) {
                return null;
            }
            LocalDateTime date = LocalDateTime.of(y, 1, 1, 0, 0).plusDays(dayOfYear - 1L);
            m = date.getMonthValue();
            d = date.getDayOfMonth();
        }
        return CivilTime.isValidDate(y, m, d) ? toInstant(y, m, d, zone) : null;
    }

    private Instant toInstant(int y, int m, int d, ZoneId zone) {
        LocalDateTime local = LocalDateTime.of(y, m, d, hour, minute, second, nanos);
        return local.atZone(zone).toInstant();
    }
}
