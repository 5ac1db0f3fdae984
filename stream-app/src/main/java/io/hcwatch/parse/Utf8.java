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
        // The JDK's own decoder has a vectorised path for ASCII, which nearly every log line is.
        // It replaces what it cannot decode with U+FFFD, so only text holding U+FFFD (substituted
        // or genuine, and a Latin-1 string cannot hold it) needs the strict decoder to tell.
        String text = new String(bytes, StandardCharsets.UTF_8);
        return text.indexOf('\uFFFD') < 0 ? text : strict(bytes);
    }

    /** Whether every byte is ASCII (so the bytes are valid UTF-8 and each is one char). */
    static boolean isAscii(byte[] bytes) {
        int any = 0;
        for (byte b : bytes) {
            any |= b;
        }
        return any >= 0;
    }

    private static String strict(byte[] bytes) {
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
}
