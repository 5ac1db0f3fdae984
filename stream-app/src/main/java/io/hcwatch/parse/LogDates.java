package io.hcwatch.parse;

import java.time.Clock;

/**
 * How log dates that leave parts out are completed. HAProxy's accept dates and RFC 3164 prefixes
 * have no zone, RFC 3164 and console prefixes no year, and some console lines no date at all; the
 * hosts knew these parts, the lines do not say them.
 *
 * @param clock the zone of dates without an offset; now, for lines without a date and for
 *              {@code year == null}
 * @param year  the year of dates without one; null: the latest such date no more than a day ahead
 *              of the clock's now, right while reading live (a {@code Dec 31} line read on Jan 1 is
 *              last year's) and wrong for a file from another year, hence {@code replay --year}
 */
public record LogDates(Clock clock, Integer year) {

    /** Dates completed from the clock alone: the always-on app reading lines as they are written. */
    public static LogDates live(Clock clock) {
        return new LogDates(clock, null);
    }
}
