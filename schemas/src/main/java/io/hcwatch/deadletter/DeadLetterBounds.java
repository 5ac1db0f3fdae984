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
 * default 1 MiB ({@code max.message.bytes}, {@code max.request.size}), even as UTF-8. A topic set
 * to take less is read at start, and {@link #fitting} cuts each letter's raw bytes (then its stack)
 * to the limit found.
 */
public final class DeadLetterBounds {

    public static final int MAX_RAW_BYTES = 256 * 1024;
    public static final int MAX_TEXT_CHARS = 4_000;
    /**
     * What a record takes on the wire besides its value's Avro encoding: the record batch header (61
     * bytes), the record's own header, the key (a source or a key of the stream app, at most a few
     * hundred bytes) and the wire format's 5 bytes, with room to spare.
     */
    public static final int RECORD_OVERHEAD = 4 * 1024;
    /** The smallest record size limit {@link #fitting} can keep every dead letter under: its texts at their longest, no raw. */
    public static final int MIN_RECORD_BYTES = RECORD_OVERHEAD + 3 * (MAX_TEXT_CHARS * 2 + 2_000) + 8 * 1024;
    /** Every text field at its longest, three bytes a character in UTF-8, and the fixed fields. */
    private static final int TEXT_BOUND = 3 * (2 * MAX_TEXT_CHARS + 16_000 + 3 * 1_000) + 256;

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

    /**
     * {@code letter}, or a copy whose {@code raw} (then {@code exception_stack}) is cut so that the
     * record fits {@code maxRecordBytes} (the dead-letter topic's {@code max.message.bytes}, or the
     * producer's {@code max.request.size} if smaller), {@code raw_size} still saying the whole size.
     * Cheap for the letters that fit with room to spare, that is all of them under the default 1 MiB.
     */
    public static DeadLetter fitting(DeadLetter letter, int maxRecordBytes) {
        int rawLength = letter.getRaw() == null ? 0 : letter.getRaw().remaining();
        int budget = maxRecordBytes - RECORD_OVERHEAD;
        if (rawLength + TEXT_BOUND <= budget) {
            return letter;
        }
        int size = encodedSize(letter);
        if (size <= budget) {
            return letter;
        }
        DeadLetter.Builder cut = DeadLetter.newBuilder(letter);
        int rest = size - rawLength;
        if (rest < budget) {
            ByteBuffer raw = letter.getRaw().duplicate();
            // the length prefix of raw shrinks too, never grows: the rest stays within budget
            raw.limit(raw.position() + (budget - rest));
            cut.setRaw(raw.slice());
        } else {
            cut.setRaw(null);
            String stack = letter.getExceptionStack();
            if (stack != null) {
                int over = rest - budget;
                // every character takes at least a byte: cutting this many frees at least as many bytes
                cut.setExceptionStack(text(stack, Math.max(0, stack.length() - over)));
            }
        }
        return cut.build();
    }

    private static int encodedSize(DeadLetter letter) {
        try {
            return letter.toByteBuffer().remaining();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
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
