package io.hcwatch.parse;

/**
 * Calendar arithmetic without {@code java.time} formatters: the log parsers turn a validated
 * year/month/day/time into epoch seconds directly, which is several times faster than
 * DateTimeFormatter on the hot path.
 */
final class CivilTime {

    private static final int[] DAYS_IN_MONTH = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

    private CivilTime() {
    }

    static boolean isLeap(long year) {
        return (year & 3) == 0 && (year % 100 != 0 || year % 400 == 0);
    }

    static int daysInMonth(long year, int month) {
        return month == 2 && isLeap(year) ? 29 : DAYS_IN_MONTH[month - 1];
    }

    static boolean isValidDate(long year, int month, int day) {
        return year >= 1 && year <= 9999 && month >= 1 && month <= 12 && day >= 1
                && day <= daysInMonth(year, month);
    }

    static boolean isValidTime(int hour, int minute, int second) {
        // 60 is a leap second; java.time cannot hold it and no load balancer writes one
        return hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59 && second >= 0 && second <= 59;
    }

    /** Days since 1970-01-01 (H. Hinnant's days_from_civil). */
    static long epochDay(long year, int month, int day) {
        long y = month <= 2 ? year - 1 : year;
        long era = Math.floorDiv(y, 400);
        long yoe = y - era * 400;
        long mp = (month + 9) % 12;
        long doy = (153 * mp + 2) / 5 + day - 1;
        long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146097 + doe - 719468;
    }

    static long epochSecond(long year, int month, int day, int hour, int minute, int second) {
        return epochDay(year, month, day) * 86_400L + hour * 3_600L + minute * 60L + second;
    }

    /** Month number (1-12) of an English three-letter abbreviation at {@code at}, else -1. */
    static int monthOfAbbreviation(CharSequence s, int at) {
        char a = s.charAt(at);
        char b = s.charAt(at + 1);
        char c = s.charAt(at + 2);
        switch (a) {
            case 'J':
                if (b == 'a' && c == 'n') {
                    return 1;
                }
                if (b == 'u' && c == 'n') {
                    return 6;
                }
                return b == 'u' && c == 'l' ? 7 : -1;
            case 'F':
                return b == 'e' && c == 'b' ? 2 : -1;
            case 'M':
                if (b == 'a' && c == 'r') {
                    return 3;
                }
                return b == 'a' && c == 'y' ? 5 : -1;
            case 'A':
                if (b == 'p' && c == 'r') {
                    return 4;
                }
                return b == 'u' && c == 'g' ? 8 : -1;
            case 'S':
                return b == 'e' && c == 'p' ? 9 : -1;
            case 'O':
                return b == 'c' && c == 't' ? 10 : -1;
            case 'N':
                return b == 'o' && c == 'v' ? 11 : -1;
            case 'D':
                return b == 'e' && c == 'c' ? 12 : -1;
            default:
                return -1;
        }
    }

    static final String[] MONTH_ABBREVIATIONS = {
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
    };
}
