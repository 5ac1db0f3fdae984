package io.hcwatch.parse;

/**
 * Splits an ALB access-log line into fields in one pass: fields are separated by single spaces,
 * a field starting with {@code "} runs to the next {@code "} (it may hold spaces) and that quote must
 * end the field. Bounds are written into a caller-owned array so nothing but the array is allocated.
 */
final class AlbFieldTokenizer {

    /** Fields beyond this are ignored, as AWS tells readers to ignore unexpected trailing fields. */
    static final int MAX_FIELDS = 40;

    /** Returned instead of a count when a quoted field is unterminated or glued to the next one. */
    static final int BAD_QUOTING = -1;

    private AlbFieldTokenizer() {
    }

    /**
     * @param bounds receives start,end pairs (end exclusive, quotes excluded); length >= 2 * MAX_FIELDS
     * @param quoted receives whether field i was quoted
     * @return the number of fields in the line (may exceed MAX_FIELDS), or BAD_QUOTING; the position
     *         of a quoting error is stored in bounds[0]
     */
    static int tokenize(String line, int[] bounds, boolean[] quoted) {
        int n = line.length();
        int count = 0;
        int i = 0;
        while (i < n) {
            char c = line.charAt(i);
            int start;
            int end;
            boolean isQuoted = c == '"';
            if (isQuoted) {
                start = i + 1;
                end = line.indexOf('"', start);
                if (end < 0 || (end + 1 < n && line.charAt(end + 1) != ' ')) {
                    bounds[0] = end < 0 ? i : end;
                    return BAD_QUOTING;
                }
                i = end + 1;
            } else {
                start = i;
                end = line.indexOf(' ', i);
                if (end < 0) {
                    end = n;
                }
                i = end;
            }
            if (count < MAX_FIELDS) {
                bounds[2 * count] = start;
                bounds[2 * count + 1] = end;
                quoted[count] = isQuoted;
            }
            count++;
            // one separating space; a run of spaces would make empty fields, which ALB never writes
            if (i < n) {
                i++;
                if (i == n) {
                    break; // a trailing space ends the line, it does not start an empty field
                }
            }
        }
        return count;
    }
}
