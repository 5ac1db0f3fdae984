package io.hcwatch.observability;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * The request line of an HTTP/1.x request, read from a socket within a time and size budget: the
 * endpoints take no bodies and no headers matter to them, so the head is read up to its empty line
 * and only the method and path are kept.
 */
record RequestHead(String method, String path) {

    /** Why a head could not be read; {@code status} is the answer owed, 0 for none (the client is gone or too slow). */
    static final class Unreadable extends IOException {
        private static final long serialVersionUID = 1L;
        final int status;

        Unreadable(int status, String message) {
            super(message);
            this.status = status;
        }
    }

    /** Probes and scrapers send a few hundred bytes. */
    static final int MAX_BYTES = 8 * 1024;

    static RequestHead read(Socket socket, long deadlineNanos) throws IOException {
        InputStream in = socket.getInputStream();
        byte[] head = new byte[MAX_BYTES];
        int length = 0;
        int end = -1;
        while (end < 0) {
            if (length == MAX_BYTES) {
                throw new Unreadable(431, "request head over " + MAX_BYTES + " bytes");
            }
            long left = (deadlineNanos - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                throw new Unreadable(0, "request head not complete in time");
            }
            socket.setSoTimeout((int) Math.min(left, Integer.MAX_VALUE));
            int n;
            try {
                n = in.read(head, length, MAX_BYTES - length);
            } catch (SocketTimeoutException e) {
                throw new Unreadable(0, "request head not complete in time");
            }
            if (n < 0) {
                throw new Unreadable(0, "connection closed before the request head ended");
            }
            end = headEnd(head, Math.max(0, length - 3), length + n);
            length += n;
        }
        String text = new String(head, 0, end, StandardCharsets.ISO_8859_1);
        int lineEnd = text.indexOf('\n');
        String[] line = text.substring(0, lineEnd).strip().split(" ", -1);
        if (line.length != 3 || !line[2].startsWith("HTTP/1.") || line[0].isEmpty() || !line[1].startsWith("/")) {
            throw new Unreadable(400, "not an HTTP/1.x request line");
        }
        int query = line[1].indexOf('?');
        return new RequestHead(line[0], query < 0 ? line[1] : line[1].substring(0, query));
    }

    /** Where the empty line that ends the head ends (CRLF CRLF, or LF LF from lenient clients), searched from {@code from}; -1 if not yet. */
    private static int headEnd(byte[] head, int from, int to) {
        for (int i = from; i < to; i++) {
            if (head[i] == '\n' && i > 0 && (head[i - 1] == '\n' || i > 2 && head[i - 1] == '\r' && head[i - 2] == '\n')) {
                return i + 1;
            }
        }
        return -1;
    }
}
