package io.hcwatch.collect.alblogs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipException;
import io.hcwatch.collect.ConfigReader;
import org.junit.jupiter.api.Test;

class LogLinesTest {

    private static final ObjectLimits DEFAULTS = ObjectLimits.read(new ConfigReader(new Properties()));

    private final List<String> lines = new ArrayList<>();
    private final List<String> oversized = new ArrayList<>();
    private int longestHead;

    private final LogLines.Sink sink = new LogLines.Sink() {
        @Override
        public void line(byte[] line) {
            lines.add(new String(line, StandardCharsets.UTF_8));
        }

        @Override
        public void oversized(long number, byte[] head, long length) {
            longestHead = Math.max(longestHead, head.length);
            oversized.add(number + ":" + length + ":" + new String(head, 0, Math.min(head.length, 8), StandardCharsets.UTF_8));
        }
    };

    private long read(byte[] object) throws IOException {
        return LogLines.read(new ByteArrayInputStream(object), DEFAULTS, sink);
    }

    /** {@code head}, {@code length} bytes of {@code fill}, then {@code tail}, made as they are read: nothing held whole. */
    private static final class Generated extends InputStream {
        private final byte[] head;
        private final byte[] tail;
        private final long length;
        private final byte fill;
        long served;

        Generated(String head, long length, char fill, String tail) {
            this.head = head.getBytes(StandardCharsets.UTF_8);
            this.tail = tail.getBytes(StandardCharsets.UTF_8);
            this.length = length;
            this.fill = (byte) fill;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            long total = head.length + length + tail.length;
            if (served >= total) {
                return -1;
            }
            int n = (int) Math.min(len, total - served);
            for (int i = 0; i < n; i++) {
                long at = served + i;
                b[off + i] = at < head.length ? head[(int) at]
                        : at < head.length + length ? fill : tail[(int) (at - head.length - length)];
            }
            served += n;
            return n;
        }
    }

    private static byte[] gzip(String text) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }

    @Test
    void gzipAndPlainObjectsGiveTheSameLinesByteForByte() throws IOException {
        String text = "h2 2026-12-02T07:35:00.1Z \"GET https://x/ HTTP/2.0\" \"agent ü\"\nsecond line\n\nthird without newline";

        assertThat(read(gzip(text))).isEqualTo(3);
        assertThat(read(text.getBytes(StandardCharsets.UTF_8))).isEqualTo(3);
        assertThat(lines).containsExactly("h2 2026-12-02T07:35:00.1Z \"GET https://x/ HTTP/2.0\" \"agent ü\"", "second line",
                "third without newline", "h2 2026-12-02T07:35:00.1Z \"GET https://x/ HTTP/2.0\" \"agent ü\"", "second line",
                "third without newline");
    }

    @Test
    void concatenatedGzipMembersAreOneObject() throws IOException {
        byte[] a = gzip("one\n");
        byte[] b = gzip("two\n");
        byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);

        read(both);

        assertThat(lines).containsExactly("one", "two");
    }

    @Test
    void aBrokenGzipFailsAfterTheLinesBeforeTheDamage() throws IOException {
        byte[] whole = gzip("one\ntwo\n".repeat(2000));
        byte[] truncated = Arrays.copyOf(whole, whole.length / 2);

        assertThatThrownBy(() -> read(truncated)).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> read(new byte[] {0x1f, (byte) 0x8b, 8, 0, 1, 2, 3, 4, 5, 6, 7})).isInstanceOf(ZipException.class);
        assertThat(lines).isNotEmpty();
    }

    @Test
    void aHundredMegabyteLineIsHandedOverAsItsHeadAndLengthAndTheLinesAroundItAsTheyAre() throws IOException {
        Generated object = new Generated("first\nsecond\n", 100L << 20, 'a', "\nlast\n");

        assertThat(LogLines.read(object, DEFAULTS, sink)).isEqualTo(3);

        assertThat(lines).containsExactly("first", "second", "last");
        assertThat(oversized).containsExactly("3:104857600:aaaaaaaa");
        assertThat(longestHead).as("what is held of the line").isEqualTo(DEFAULTS.maxLineBytes());
    }

    @Test
    void aLineOfExactlyTheLimitIsALineAndOneByteMoreIsNot() throws IOException {
        int max = DEFAULTS.maxLineBytes();
        read(("x".repeat(max) + "\n" + "y".repeat(max + 1) + "\r\n").getBytes(StandardCharsets.UTF_8));

        assertThat(lines).singleElement().satisfies(l -> assertThat(l).hasSize(max));
        assertThat(oversized).containsExactly("2:" + (max + 2) + ":yyyyyyyy");
    }

    @Test
    void aGzipBombStopsAtTheDecompressedLimitAfterTheLinesBeforeIt() throws IOException {
        // 64 MiB of short lines in about 64 KB: a thousand times its size
        ByteArrayOutputStream bomb = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(bomb)) {
            byte[] chunk = "0123456789abcde\n".repeat(4_096).getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < 1_024; i++) {
                gz.write(chunk);
            }
        }
        ObjectLimits limits = new ObjectLimits(1L << 20, 1L << 20, 1_024, 5);

        assertThatThrownBy(() -> LogLines.read(new ByteArrayInputStream(bomb.toByteArray()), limits, sink))
                .isInstanceOfSatisfying(LogLines.LimitExceeded.class, e -> {
                    assertThat(e.reason).isEqualTo("decompressed_too_large");
                    assertThat(e).hasMessage("over 1048576 bytes decompressed (alb-logs.max-decompressed-mib)");
                });
        assertThat(bomb.size()).isLessThan(1 << 20);
        assertThat(lines).hasSize((1 << 20) / 16).allMatch("0123456789abcde"::equals);
    }

    @Test
    void anObjectOverItsStoredLimitIsNotReadPastIt() {
        Generated object = new Generated("", 10L << 20, 'z', "");
        ObjectLimits limits = new ObjectLimits(1L << 20, 1L << 30, 1_024, 5);

        assertThatThrownBy(() -> LogLines.read(object, limits, sink))
                .isInstanceOfSatisfying(LogLines.LimitExceeded.class, e -> assertThat(e.reason).isEqualTo("object_too_large"));
        assertThat(object.served).as("bytes taken from S3").isLessThanOrEqualTo((1L << 20) + 1);
    }
}
