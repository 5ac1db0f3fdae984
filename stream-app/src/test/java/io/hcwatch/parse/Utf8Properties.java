package io.hcwatch.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** The fast decoding path agrees with a strict decoder on any bytes, including a genuine U+FFFD. */
class Utf8Properties {

    private static String strict(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    @Property(tries = 3000)
    void agreesWithTheStrictDecoder(@ForAll("textish") byte[] bytes) {
        assertThat(Utf8.decodeStrict(bytes)).isEqualTo(strict(bytes));
    }

    @Property(tries = 1000)
    void asciiIsWhatAsciiDecodesAlone(@ForAll("textish") byte[] bytes) {
        // the oracle: bytes are ASCII when the strict ASCII decoder takes them
        boolean ascii;
        try {
            StandardCharsets.US_ASCII.newDecoder().onMalformedInput(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
            ascii = true;
        } catch (CharacterCodingException e) {
            ascii = false;
        }
        assertThat(Utf8.isAscii(bytes)).isEqualTo(ascii);
    }

    /** Mostly valid text (ASCII, accents, U+FFFD, emoji) with a damaged byte now and then. */
    @Provide
    Arbitrary<byte[]> textish() {
        Arbitrary<String> text = Arbitraries.strings().withCharRange(' ', '~').withChars("éü✓\uFFFD😀").ofMaxLength(40);
        return text.flatMap(s -> {
            byte[] valid = s.getBytes(StandardCharsets.UTF_8);
            if (valid.length == 0) {
                return Arbitraries.just(valid);
            }
            return Arbitraries.oneOf(Arbitraries.just(valid), Arbitraries.integers().between(0, valid.length - 1)
                    .flatMap(at -> Arbitraries.bytes().map(b -> {
                        byte[] damaged = valid.clone();
                        damaged[at] = b;
                        return damaged;
                    })));
        });
    }

    @Property
    void oneNonAsciiByteAnywhereInAnAsciiLineIsRejected(@ForAll @IntRange(min = 1, max = 33) int length,
                                                        @ForAll @IntRange(min = 0, max = 32) int at) {
        byte[] line = "x".repeat(length).getBytes(StandardCharsets.US_ASCII);
        assertThat(Utf8.decodeStrict(line)).isEqualTo("x".repeat(length));
        line[at % length] = (byte) 0x80;
        assertThat(Utf8.decodeStrict(line)).isNull();
    }
}
