package io.hcwatch.replay;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;

/**
 * Reads a file line by line as raw bytes (so a line that is not UTF-8 reaches its parser and the
 * dead-letter file intact), gunzipping when the file starts with the gzip magic number. Scans a
 * 64 KiB buffer for newlines itself: reading byte by byte through a stream costs more than
 * parsing the line.
 */
public final class LineReader implements AutoCloseable {

    private final InputStream in;
    private byte[] buf = new byte[1 << 16];
    private int start;
    private int end;
    private long lineNumber;
    private boolean eof;

    public LineReader(Path file) throws IOException {
        InputStream raw = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
        raw.mark(2);
        int b1 = raw.read();
        int b2 = raw.read();
        raw.reset();
        this.in = b1 == 0x1f && b2 == 0x8b ? new GZIPInputStream(raw, 1 << 16) : raw;
    }

    /** The next line without its line terminator, or null at the end. */
    public byte[] next() throws IOException {
        int scanFrom = start;
        while (true) {
            for (int i = scanFrom; i < end; i++) {
                if (buf[i] == '\n') {
                    byte[] line = Arrays.copyOfRange(buf, start, i > start && buf[i - 1] == '\r' ? i - 1 : i);
                    start = i + 1;
                    lineNumber++;
                    return line;
                }
            }
            if (eof) {
                if (start == end) {
                    return null;
                }
                byte[] line = Arrays.copyOfRange(buf, start, end > start && buf[end - 1] == '\r' ? end - 1 : end);
                start = end;
                lineNumber++;
                return line;
            }
            scanFrom = end - start;
            fill();
            scanFrom = start + scanFrom;
        }
    }

    /** Moves the unread part to the front (growing the buffer for very long lines) and reads more. */
    private void fill() throws IOException {
        int pending = end - start;
        if (pending == buf.length) {
            buf = Arrays.copyOf(buf, buf.length * 2);
        } else if (start > 0) {
            System.arraycopy(buf, start, buf, 0, pending);
        }
        start = 0;
        end = pending;
        int n = in.read(buf, end, buf.length - end);
        if (n < 0) {
            eof = true;
        } else {
            end += n;
        }
    }

    /** 1-based number of the line {@link #next()} returned last. */
    long lineNumber() {
        return lineNumber;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
