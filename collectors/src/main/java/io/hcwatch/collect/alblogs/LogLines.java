package io.hcwatch.collect.alblogs;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;

/**
 * The lines of a log object, byte for byte: gzip (ALB's .log.gz, several members read as one) or
 * plain text, told apart by the gzip magic number rather than the key. A line is what lies between
 * newlines, without the newline; empty lines are skipped.
 */
final class LogLines {

    /** Receives each line in order. */
    @FunctionalInterface
    interface Sink {
        void line(byte[] line) throws IOException;
    }

    private LogLines() {
    }

    /** @return the number of lines given to {@code sink} */
    static long read(InputStream object, Sink sink) throws IOException {
        BufferedInputStream in = new BufferedInputStream(object, 64 * 1024);
        in.mark(2);
        int b1 = in.read();
        int b2 = in.read();
        in.reset();
        InputStream text = b1 == 0x1f && b2 == 0x8b ? new BufferedInputStream(new GZIPInputStream(in, 64 * 1024), 64 * 1024) : in;
        ByteArrayOutputStream line = new ByteArrayOutputStream(512);
        long count = 0;
        int c;
        while ((c = text.read()) != -1) {
            if (c == '\n') {
                if (line.size() > 0) {
                    sink.line(line.toByteArray());
                    count++;
                    line.reset();
                }
            } else {
                line.write(c);
            }
        }
        if (line.size() > 0) {
            sink.line(line.toByteArray());
            count++;
        }
        return count;
    }
}
