package io.hcwatch.parse;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * HAProxy's accept date {@code 06/Feb/2009:12:14:14.655} (milliseconds absent before 1.3.x).
 * It is written in the HAProxy host's local time without a zone; the caller supplies the zone.
 */
final class HaproxyAcceptDate {

    private HaproxyAcceptDate() {
    }

    /** @return null when the range is not a valid accept date */
    static Instant parse(CharSequence s, int from, int to, ZoneId zone) {
        int len = to - from;
        if ((len != 20 && len != 24) || s.charAt(from + 2) != '/' || s.charAt(from + 6) != '/'
                || s.charAt(from + 11) != ':' || s.charAt(from + 14) != ':' || s.charAt(from + 17) != ':') {
            return null;
        }
        int day = AsciiNumbers.twoDigits(s, from);
        int month = CivilTime.monthOfAbbreviation(s, from + 3);
        long year = AsciiNumbers.parseBounded(s, from + 7, from + 11, 1, 9999);
        int hour = AsciiNumbers.twoDigits(s, from + 12);
        int minute = AsciiNumbers.twoDigits(s, from + 15);
        int second = AsciiNumbers.twoDigits(s, from + 18);
        if (year == AsciiNumbers.INVALID || !CivilTime.isValidDate(year, month, day)
                || !CivilTime.isValidTime(hour, minute, second)) {
            return null;
        }
        int millis = 0;
        if (len == 24) {
            if (s.charAt(from + 20) != '.') {
                return null;
            }
            long ms = AsciiNumbers.parseBounded(s, from + 21, to, 0, 999);
            if (ms == AsciiNumbers.INVALID) {
                return null;
            }
            millis = (int) ms;
        }
        long local = CivilTime.epochSecond(year, month, day, hour, minute, second);
        int offset = zone instanceof ZoneOffset fixed ? fixed.getTotalSeconds()
                : zone.getRules().getOffset(LocalDateTime.ofEpochSecond(local, 0, ZoneOffset.UTC)).getTotalSeconds();
        return Instant.ofEpochSecond(local - offset, millis * 1_000_000L);
    }
}
