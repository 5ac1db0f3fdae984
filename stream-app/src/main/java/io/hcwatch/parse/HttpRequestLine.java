package io.hcwatch.parse;

/**
 * HAProxy's logged request line ({@code %r}: {@code GET /path HTTP/1.1}), split into method, URI
 * and version: the first and last words, and what lies between. A line cut short keeps what is
 * there (a method and URI without version, or a method alone).
 */
final class HttpRequestLine {

    private HttpRequestLine() {
    }

    /** Fills {@code out} with method, URI and version of {@code s[from, to)}; an empty range leaves them null. */
    static void split(CharSequence s, int from, int to, String[] out) {
        if (to <= from) {
            return;
        }
        int first = HostPort.indexOf(s, ' ', from, to);
        if (first < 0) {
            out[0] = s.subSequence(from, to).toString();
            return;
        }
        out[0] = s.subSequence(from, first).toString();
        int last = HostPort.lastIndexOf(s, ' ', first + 1, to);
        if (last < 0) {
            out[1] = s.subSequence(first + 1, to).toString();
        } else {
            out[1] = s.subSequence(first + 1, last).toString();
            out[2] = s.subSequence(last + 1, to).toString();
        }
    }
}
