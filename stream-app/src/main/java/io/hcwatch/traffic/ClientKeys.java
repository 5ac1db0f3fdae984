package io.hcwatch.traffic;

/**
 * How clients and requests are counted: an IPv4 address as itself (/32), an IPv6 address by its
 * /64 (one host or one customer can rotate through a whole /64), and a request by method and
 * path without the query string (so one UUID's endpoint is one key).
 */
public final class ClientKeys {

    private ClientKeys() {
    }

    /** The counting key for a client address; null stays null. */
    public static String client(String ip) {
        if (ip == null || ip.indexOf(':') < 0) {
            return ip;
        }
        return ipv6Slash64(ip);
    }

    /** "2001:db8:1:2::/64" for any address in that /64; the input unchanged if it is not valid IPv6. */
    static String ipv6Slash64(String ip) {
        String s = ip;
        int zone = s.indexOf('%');
        if (zone >= 0) {
            s = s.substring(0, zone);
        }
        if (s.indexOf('.') >= 0) {
            return ip;
        }
        int[] groups = new int[8];
        int doubleColon = s.indexOf("::");
        String[] head;
        String[] tail;
        if (doubleColon >= 0) {
            head = split(s.substring(0, doubleColon));
            tail = split(s.substring(doubleColon + 2));
            if (head.length + tail.length > 7) {
                return ip;
            }
        } else {
            head = split(s);
            tail = new String[0];
            if (head.length != 8) {
                return ip;
            }
        }
        try {
            for (int i = 0; i < head.length; i++) {
                groups[i] = group(head[i]);
            }
            for (int i = 0; i < tail.length; i++) {
                groups[8 - tail.length + i] = group(tail[i]);
            }
        } catch (NumberFormatException e) {
            return ip;
        }
        int last = 3;
        while (last >= 0 && groups[last] == 0) {
            last--;
        }
        if (last < 0) {
            return "::/64";
        }
        StringBuilder sb = new StringBuilder(24);
        for (int i = 0; i <= last; i++) {
            sb.append(Integer.toHexString(groups[i])).append(':');
        }
        sb.append(":/64");
        return sb.toString();
    }

    private static String[] split(String part) {
        return part.isEmpty() ? new String[0] : part.split(":", -1);
    }

    private static int group(String g) {
        if (g.isEmpty() || g.length() > 4) {
            throw new NumberFormatException(g);
        }
        return Integer.parseInt(g, 16);
    }

    /** "GET /api/v1/devices/6f1c…/ping": method and path, no scheme, host or query. */
    public static String request(String method, String url) {
        if (url == null) {
            return method;
        }
        int from = 0;
        int scheme = url.indexOf("://");
        if (scheme > 0 && isScheme(url, scheme)) {
            int slash = url.indexOf('/', scheme + 3);
            if (slash < 0) {
                return method == null ? "/" : method + " /";
            }
            from = slash;
        }
        int query = url.indexOf('?', from);
        int to = Math.min(query < 0 ? url.length() : query, from + 200);
        if (method == null) {
            return url.substring(from, to);
        }
        // one copy of the path, not three: this runs for every access-log line
        return new StringBuilder(method.length() + 1 + to - from).append(method).append(' ').append(url, from, to).toString();
    }

    /** Whether {@code url[0, end)} is a URI scheme, so "://" inside a query string is not taken for one. */
    private static boolean isScheme(String url, int end) {
        for (int i = 0; i < end; i++) {
            char c = url.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i > 0 && ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.'));
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
