package io.hcwatch.parse;

/**
 * An {@code ip:port} pair as load balancers log it: {@code 10.0.0.1:80}, bracketed IPv6
 * {@code [2001:db8::1]:80} and bare IPv6 {@code 2001:db8::1:80} (split at the last colon, as the
 * port is always last). The brackets are not part of the stored address.
 */
record HostPort(String host, int port) {

    /** @return null when the range is not host:port with a port in 0..65535 */
    static HostPort parse(CharSequence s, int from, int to) {
        if (to - from < 3) {
            return null;
        }
        int colon;
        String host;
        if (s.charAt(from) == '[') {
            int close = indexOf(s, ']', from + 1, to);
            if (close < 0 || close + 1 >= to || s.charAt(close + 1) != ':' || close == from + 1) {
                return null;
            }
            colon = close + 1;
            host = s.subSequence(from + 1, close).toString();
        } else {
            colon = lastIndexOf(s, ':', from, to);
            if (colon <= from) {
                return null;
            }
            host = s.subSequence(from, colon).toString();
        }
        long port = AsciiNumbers.parseBounded(s, colon + 1, to, 0, 65_535);
        if (port == AsciiNumbers.INVALID || s.charAt(colon + 1) == '-') {
            return null;
        }
        return new HostPort(host, (int) port);
    }

    static int indexOf(CharSequence s, char c, int from, int to) {
        for (int i = from; i < to; i++) {
            if (s.charAt(i) == c) {
                return i;
            }
        }
        return -1;
    }

    static int lastIndexOf(CharSequence s, char c, int from, int to) {
        for (int i = to - 1; i >= from; i--) {
            if (s.charAt(i) == c) {
                return i;
            }
        }
        return -1;
    }
}
