package io.hcwatch.parse;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * ISO-8601 date-times as load balancers write them: {@code 2018-07-02T22:23:00.186641Z},
 * {@code 2021-12-15T16:55:18+01:00}, {@code 2023-04-04 15:54:26}. Hand-written because
 * DateTimeFormatter costs more than the rest of an ALB line together.
 */
final class IsoInstants {

    /** What a parse produced: the instant and, when the text carried one, its UTC offset. */
    record Parsed(Instant instant, ZoneOffset offset) {
    }

    private IsoInstants() {
    }

    /** A date-time with an explicit zone ({@code Z} or an offset); anything else is null. */
    static Instant parse(CharSequence s, int from, int to) {
        Parsed p = parse(s, from, to, null);
        return p == null ? null : p.instant();
    }

    /**
     * The one form the JSON readers see almost always, {@code 2026-03-03T14:32:45.120Z} (a fraction of
     * 1 to 9 digits, or none), else null: a subset of what {@code OffsetDateTime.parse} accepts, read to
     * the same instant (IsoInstantsProperties holds it to the JDK's parser), at a fraction of its cost
     * (it was 7% of the fleet bench's thread). Anything else goes to the JDK's parser.
     */
    static Instant parseUtc(String s) {
        int len = s.length();
        if (len < 20 || len > 30 || s.charAt(10) != 'T' || s.charAt(len - 1) != 'Z'
                || (len > 20 && (s.charAt(19) != '.' || len == 21))) {
            return null;
        }
        return parse(s, 0, len);
    }

    /**
     * @param zoneWhenAbsent zone for text without {@code Z}/offset; null means such text is invalid
     * @return null when the range is not a valid date-time
     */
    static Parsed parse(CharSequence s, int from, int to, ZoneId zoneWhenAbsent) {
        if (to - from < 19) {
            return null;
        }
        int year = (int) AsciiNumbers.parseBounded(s, from, from + 4, 1, 9999);
        if (year < 0 || s.charAt(from + 4) != '-' || s.charAt(from + 7) != '-'
                || s.charAt(from + 13) != ':' || s.charAt(from + 16) != ':') {
            return null;
        }
        char sep = s.charAt(from + 10);
        if (sep != 'T' && sep != ' ') {
            return null;
        }
        int month = AsciiNumbers.twoDigits(s, from + 5);
        int day = AsciiNumbers.twoDigits(s, from + 8);
        int hour = AsciiNumbers.twoDigits(s, from + 11);
        int minute = AsciiNumbers.twoDigits(s, from + 14);
        int second = AsciiNumbers.twoDigits(s, from + 17);
        if (!CivilTime.isValidDate(year, month, day) || !CivilTime.isValidTime(hour, minute, second)) {
            return null;
        }
        int i = from + 19;
        int nanos = 0;
        if (i < to && (s.charAt(i) == '.' || s.charAt(i) == ',')) {
            i++;
            int digits = 0;
            while (i < to && AsciiNumbers.isDigit(s.charAt(i))) {
                if (digits < 9) {
                    nanos = nanos * 10 + (s.charAt(i) - '0');
                }
                digits++;
                i++;
            }
            if (digits == 0) {
                return null;
            }
            for (int d = digits; d < 9; d++) {
                nanos *= 10;
            }
        }
        long local = CivilTime.epochSecond(year, month, day, hour, minute, second);
        if (i == to) {
            if (zoneWhenAbsent == null) {
                return null;
            }
            LocalDateTime ldt = LocalDateTime.ofEpochSecond(local, nanos, ZoneOffset.UTC);
            ZoneOffset offset = zoneWhenAbsent.getRules().getOffset(ldt);
            return new Parsed(Instant.ofEpochSecond(local - offset.getTotalSeconds(), nanos), null);
        }
        char z = s.charAt(i);
        if (z == 'Z' && i + 1 == to) {
            return new Parsed(Instant.ofEpochSecond(local, nanos), ZoneOffset.UTC);
        }
        if (z != '+' && z != '-') {
            return null;
        }
        int offsetSeconds = parseOffset(s, i + 1, to);
        if (offsetSeconds < 0) {
            return null;
        }
        int signed = z == '-' ? -offsetSeconds : offsetSeconds;
        return new Parsed(Instant.ofEpochSecond(local - signed, nanos), ZoneOffset.ofTotalSeconds(signed));
    }

    /** {@code HH:MM} or {@code HHMM} as seconds, else -1. */
    private static int parseOffset(CharSequence s, int from, int to) {
        int len = to - from;
        if (len != 5 && len != 4) {
            return -1;
        }
        int hours = AsciiNumbers.twoDigits(s, from);
        int minuteAt = len == 5 ? from + 3 : from + 2;
        if (len == 5 && s.charAt(from + 2) != ':') {
            return -1;
        }
        int minutes = AsciiNumbers.twoDigits(s, minuteAt);
        if (hours < 0 || hours > 18 || minutes < 0 || minutes > 59) {
            return -1;
        }
        return hours * 3600 + minutes * 60;
    }

}
