package io.hcwatch.collect.alblogs;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;

/**
 * The lines of a log object, byte for byte: gzip (ALB's .log.gz, several members read as one) or
 * plain text, told apart by the gzip magic number rather than the key. A line is what lies between
 * newlines, without the newline; empty lines are skipped. Read in chunks as it arrives, never
 * whole: at most {@code maxLineBytes} of a line are held, a longer line is handed over as its head
 * and its length, and an object over its size limits, as stored or decompressed, ends the reading
 * with {@link LimitExceeded}.
 */
final class LogLines {

    private static final int CHUNK = 64 * 1024;

    /** Receives each line in order. */
    interface Sink {
        void line(byte[] line) throws IOException;

        /** Line {@code number} (counting from 1, empty lines too) is {@code length} bytes; {@code head} is its start. */
        void oversized(long number, byte[] head, long length) throws IOException;
    }

    /** The object is larger than a limit allows; {@code reason} is the dead letter's. */
    static final class LimitExceeded extends IOException {
        private static final long serialVersionUID = 1L;
        final String reason;

        LimitExceeded(String reason, String message) {
            super(message);
            this.reason = reason;
        }
    }

    private LogLines() {
    }

    /** @return the number of lines given to {@code sink} (oversized ones not counted) */
    static long read(InputStream object, ObjectLimits limits, Sink sink) throws IOException {
        BufferedInputStream in = new BufferedInputStream(new Bounded(object, limits.maxObjectBytes(), "object_too_large",
                "bytes as stored (" + ObjectLimits.OBJECT_KEY + ")"), CHUNK);
        in.mark(2);
        int b1 = in.read();
        int b2 = in.read();
        in.reset();
        InputStream text = new Bounded(b1 == 0x1f && b2 == 0x8b ? new GZIPInputStream(in, CHUNK) : in,
                limits.maxDecompressedBytes(), "decompressed_too_large", "bytes decompressed (" + ObjectLimits.DECOMPRESSED_KEY + ")");
        Lines lines = new Lines(limits.maxLineBytes(), sink);
        byte[] chunk = new byte[CHUNK];
        int n;
        while ((n = text.read(chunk)) != -1) {
            int start = 0;
            for (int i = 0; i < n; i++) {
                if (chunk[i] == '\n') {
                    lines.append(chunk, start, i);
                    lines.end();
                    start = i + 1;
                }
            }
            lines.append(chunk, start, n);
        }
        lines.end();
        return lines.delivered;
    }

    /** The line being read: its first {@code max} bytes and its whole length. */
    private static final class Lines {
        private final int max;
        private final Sink sink;
        private final ByteArrayOutputStream held = new ByteArrayOutputStream(512);
        private long length;
        private long number = 1;
        long delivered;

        Lines(int max, Sink sink) {
            this.max = max;
            this.sink = sink;
        }

        void append(byte[] bytes, int from, int to) {
            int kept = (int) Math.max(0, Math.min(to - from, max - length));
            held.write(bytes, from, kept);
            length += to - from;
        }

        void end() throws IOException {
            if (length > max) {
                sink.oversized(number, held.toByteArray(), length);
            } else if (length > 0) {
                sink.line(held.toByteArray());
                delivered++;
            }
            held.reset();
            length = 0;
            number++;
        }
    }

    /** Fails once more than {@code max} bytes come through. */
    private static final class Bounded extends FilterInputStream {
        private final long max;
        private final String reason;
        private final String what;
        private long count;

        Bounded(InputStream in, long max, String reason, String what) {
            super(in);
            this.max = max;
            this.reason = reason;
            this.what = what;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                counted(1);
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, (int) Math.min(len, max - count + 1));
            if (n > 0) {
                counted(n);
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            return super.skip(Math.min(n, max - count + 1));
        }

        private void counted(int n) throws LimitExceeded {
            count += n;
            if (count > max) {
                throw new LimitExceeded(reason, "over " + max + " " + what);
            }
        }
    }
}
