package io.hcwatch.replay;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;

/**
 * Reads a file line by line as raw bytes (so a line that is not UTF-8 reaches its parser and the
 * dead-letter file intact), gunzipping when the file starts with the gzip magic number.
 */
public final class LineReader implements AutoCloseable {

    private final InputStream in;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(512);
    private long lineNumber;
    private boolean eof;

    public LineReader(Path file) throws IOException {
        InputStream raw = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
        raw.mark(2);
        int b1 = raw.read();
        int b2 = raw.read();
        raw.reset();
        this.in = b1 == 0x1f && b2 == 0x8b ? new BufferedInputStream(new GZIPInputStream(raw, 1 << 16), 1 << 16) : raw;
    }

    /** The next line without its line terminator, or null at the end. */
    public byte[] next() throws IOException {
        if (eof) {
            return null;
        }
        line.reset();
        int b;
        while ((b = in.read()) >= 0) {
            if (b == '\n') {
                lineNumber++;
                return trimCr(line.toByteArray());
            }
            line.write(b);
        }
        eof = true;
        if (line.size() == 0) {
            return null;
        }
        lineNumber++;
        return trimCr(line.toByteArray());
    }

    /** 1-based number of the line {@link #next()} returned last. */
    long lineNumber() {
        return lineNumber;
    }

    private static byte[] trimCr(byte[] b) {
        return b.length > 0 && b[b.length - 1] == '\r' ? Arrays.copyOf(b, b.length - 1) : b;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
