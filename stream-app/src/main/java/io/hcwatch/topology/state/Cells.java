package io.hcwatch.topology.state;

/**
 * What a part's rows are written to, cell by cell: a {@link RowWriter}, which encodes them, or a
 * {@link RowLog}, which keeps their values so that a commit can tell whether the part changed
 * before it encodes it ({@link CachedPart}).
 */
interface Cells {

    void varint(long x);

    void row(int columns);

    void absent(int column);

    void nullValue(int column);

    void bool(int column, boolean b);

    void integer(int column, long x);

    void floatValue(int column, float f);

    void text(int column, String text);

    /** A boxed integer field: absent when null. */
    default void integer(int column, Number x) {
        if (x == null) {
            absent(column);
        } else {
            integer(column, x.longValue());
        }
    }

    /** A string field: absent when null. */
    default void optionalText(int column, String text) {
        if (text == null) {
            absent(column);
        } else {
            text(column, text);
        }
    }
}
