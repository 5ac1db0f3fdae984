package io.hcwatch.parse;

/**
 * Parses one raw log line. Implementations never throw on bad input: whatever the line holds, the
 * answer is a {@link ParseResult}.
 */
public interface LineParser<T> {

    ParseResult<T> parse(String line);

    /** Raw topic values arrive as bytes; malformed UTF-8 is a rejection, not a replacement char. */
    default ParseResult<T> parse(byte[] utf8) {
        if (utf8 == null) {
            return ParseResult.rejected(RejectReason.EMPTY, "input held no bytes (null)");
        }
        String line = Utf8.decodeStrict(utf8);
        if (line == null) {
            return ParseResult.rejected(RejectReason.BAD_UTF8,
                    "input of " + utf8.length + " bytes is not valid UTF-8");
        }
        return parse(line);
    }
}
