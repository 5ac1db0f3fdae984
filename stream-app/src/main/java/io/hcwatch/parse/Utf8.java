package io.hcwatch.parse;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Strict UTF-8 decoding: {@code new String(bytes, UTF_8)} would silently substitute U+FFFD. */
final class Utf8 {

    private Utf8() {
    }

    /** @return the decoded text, or null when the bytes are not valid UTF-8 */
    static String decodeStrict(byte[] bytes) {
        if (isAscii(bytes)) {
            // nearly every log line is ASCII; skip the decoder machinery for them
            return new String(bytes, StandardCharsets.ISO_8859_1);
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    private static boolean isAscii(byte[] bytes) {
        for (byte b : bytes) {
            if (b < 0) {
                return false;
            }
        }
        return true;
    }
}
