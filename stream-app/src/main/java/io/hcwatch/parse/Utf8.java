package io.hcwatch.parse;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Strict UTF-8 decoding: {@code new String(bytes, UTF_8)} would silently substitute U+FFFD. */
final class Utf8 {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long HIGH_BITS = 0x8080808080808080L;

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

    /** Eight bytes at a time: a log line is hundreds of bytes, and this runs for every one. */
    static boolean isAscii(byte[] bytes) {
        int i = 0;
        long high = 0;
        for (int end = bytes.length - 7; i < end; i += 8) {
            high |= (long) LONGS.get(bytes, i);
        }
        for (; i < bytes.length; i++) {
            high |= bytes[i];
        }
        return (high & HIGH_BITS) == 0;
    }
}
