package io.hcwatch.parse;

/**
 * Whether text is an IPv4 CIDR ({@code a.b.c.d/0..32}, no leading zeros) or an IPv6 one (RFC 4291
 * text: eight groups of one to four hex digits, one {@code ::} standing for the groups left out, the
 * last 32 bits optionally dotted, then {@code /0..128}). One pass over the text, each character read
 * at most twice: zone_cidrs arrive from anyone who can write lb-config, and the regular expression
 * this replaces tried every split of a long run of colons before failing.
 */
final class CidrNotation {

    private CidrNotation() {
    }

    static boolean isCidr(CharSequence text) {
        int slash = -1;
        for (int i = text.length() - 1; i >= 0 && slash < 0; i--) {
            if (text.charAt(i) == '/') {
                slash = i;
            }
        }
        if (slash <= 0) {
            return false;
        }
        int prefix = decimal(text, slash + 1, text.length());
        if (isIpv4(text, 0, slash)) {
            return prefix >= 0 && prefix <= 32;
        }
        return prefix >= 0 && prefix <= 128 && isIpv6(text, 0, slash);
    }

    /** Four decimal octets 0-255 without leading zeros, exactly filling [from, to). */
    private static boolean isIpv4(CharSequence text, int from, int to) {
        int i = from;
        for (int octet = 0; octet < 4; octet++) {
            int start = i;
            while (i < to && i - start < 4 && isDigit(text.charAt(i))) {
                i++;
            }
            int value = decimal(text, start, i);
            if (value < 0 || value > 255) {
                return false;
            }
            if (octet < 3) {
                if (i >= to || text.charAt(i) != '.') {
                    return false;
                }
                i++;
            }
        }
        return i == to;
    }

    private static boolean isIpv6(CharSequence text, int from, int to) {
        int i = from;
        int groups = 0;
        boolean compressed = false;
        if (to - from >= 2 && text.charAt(i) == ':' && text.charAt(i + 1) == ':') {
            compressed = true;
            i += 2;
        } else if (i < to && text.charAt(i) == ':') {
            return false;
        }
        while (i < to) {
            int start = i;
            while (i < to && i - start < 5 && Character.digit(text.charAt(i), 16) >= 0) {
                i++;
            }
            if (i < to && i - start < 5 && text.charAt(i) == '.') {
                // the last 32 bits as an IPv4 address: two groups' worth
                return (compressed ? groups <= 5 : groups == 6) && isIpv4(text, start, to);
            }
            if (i == start || i - start > 4) {
                return false;
            }
            groups++;
            if (i == to) {
                break;
            }
            if (text.charAt(i) != ':') {
                return false;
            }
            i++;
            if (i < to && text.charAt(i) == ':') {
                if (compressed) {
                    return false;
                }
                compressed = true;
                i++;
            } else if (i == to) {
                return false;
            }
        }
        return compressed ? groups <= 7 : groups == 8;
    }

    /** The value of 1-3 decimal digits without a leading zero filling [from, to); -1 otherwise. */
    private static int decimal(CharSequence text, int from, int to) {
        if (to <= from || to - from > 3 || (to - from > 1 && text.charAt(from) == '0')) {
            return -1;
        }
        int value = 0;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (!isDigit(c)) {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
