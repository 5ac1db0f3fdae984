package io.hcwatch.collect.alblogs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipException;
import org.junit.jupiter.api.Test;

class LogLinesTest {

    private final List<String> lines = new ArrayList<>();

    private long read(byte[] object) throws IOException {
        return LogLines.read(new ByteArrayInputStream(object), l -> lines.add(new String(l, StandardCharsets.UTF_8)));
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
}
