package io.hcwatch.deadletter;

import io.hcwatch.avro.v1.DeadLetter;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Keeps every dead letter under the dead-letter topic's record size limit, whatever it carries: a
 * dead letter the broker refuses (RecordTooLargeException) fails the producer, and in the stream
 * app that replaces the stream thread, which reads the same input again and fails again. So the
 * input's bytes are cut to their first {@link #MAX_RAW_BYTES} with the original size in
 * {@code raw_size}, and free text is cut to {@link #MAX_TEXT_CHARS}.
 *
 * <p>256 KiB of raw, 16,000 characters of stack and 2 x 4,000 of text stay well under Kafka's
 * default 1 MiB ({@code max.message.bytes}, {@code max.request.size}), even as UTF-8.
 */
public final class DeadLetterBounds {

    public static final int MAX_RAW_BYTES = 256 * 1024;
    public static final int MAX_TEXT_CHARS = 4_000;

    private DeadLetterBounds() {
    }

    /** Sets {@code raw} (cut to {@link #MAX_RAW_BYTES}) and {@code raw_size} (its whole size). */
    public static DeadLetter.Builder withRaw(DeadLetter.Builder letter, byte[] raw) {
        if (raw == null) {
            return letter.setRaw(null).setRawSize(null);
        }
        byte[] kept = raw.length <= MAX_RAW_BYTES ? raw : Arrays.copyOf(raw, MAX_RAW_BYTES);
        return letter.setRaw(ByteBuffer.wrap(kept)).setRawSize(raw.length);
    }

    /** {@code text} cut to {@code max} characters, saying how long it was. */
    public static String text(String text, int max) {
        if (text == null || text.length() <= max) {
            return text;
        }
        String marker = "... (" + text.length() + " characters)";
        return text.substring(0, Math.max(0, max - marker.length())) + marker;
    }

    /** {@code text} cut to {@link #MAX_TEXT_CHARS}. */
    public static String text(String text) {
        return text(text, MAX_TEXT_CHARS);
    }
}
