package io.hcwatch.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** The word-at-a-time ASCII check agrees with a byte-by-byte one wherever the odd byte sits. */
class Utf8Properties {

    @Property
    void asciiCheckFindsAHighByteAtAnyPosition(@ForAll @Size(max = 40) byte[] bytes) {
        boolean expected = true;
        for (byte b : bytes) {
            expected &= b >= 0;
        }
        assertThat(Utf8.isAscii(bytes)).isEqualTo(expected);
    }

    @Property
    void oneNonAsciiByteAnywhereInAnAsciiLine(@ForAll @IntRange(min = 1, max = 33) int length,
                                              @ForAll @IntRange(min = 0, max = 32) int at) {
        byte[] line = "x".repeat(length).getBytes(StandardCharsets.US_ASCII);
        assertThat(Utf8.isAscii(line)).isTrue();
        line[at % length] = (byte) 0x80;
        assertThat(Utf8.isAscii(line)).isFalse();
        assertThat(Utf8.decodeStrict(line)).isNull();
    }
}
