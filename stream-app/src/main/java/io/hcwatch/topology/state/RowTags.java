package io.hcwatch.topology.state;

/**
 * The 4-bit tags of {@link CompactRows}' values, shared by {@link RowWriter} and {@link RowReader}:
 * stored bytes, so a tag's number never changes and a freed one is not reused.
 */
final class RowTags {

    static final int ABSENT = 0;
    static final int NULL = 1;
    static final int FALSE = 2;
    static final int TRUE = 3;
    static final int INTEGER = 4;
    static final int TIME = 5;
    static final int FLOAT = 6;
    static final int DOUBLE = 7;
    static final int SEEN_TEXT = 8;
    static final int TEXT = 9;
    static final int TREE = 10;
    static final int WHOLE_FLOAT = 11;
    static final int WHOLE_DOUBLE = 12;
    static final int BASE64 = 13;
    /** Integers from here up are epoch milliseconds (2001 on), written against the previous one. */
    static final long EPOCH_MILLIS = 1_000_000_000_000L;

    private RowTags() {
    }
}
