package io.hcwatch.topology.state;

/**
 * Entry {@code i} of a stored array as a row's cell: absent when the array is (null: Jackson
 * leaves it out) or is shorter, as the row cut from the array's tree has no such field.
 */
final class ArrayCells {

    private ArrayCells() {
    }

    static void longAt(RowWriter out, int column, long[] values, int i) {
        if (values == null || values.length <= i) {
            out.absent(column);
        } else {
            out.integer(column, values[i]);
        }
    }

    static void intAt(RowWriter out, int column, int[] values, int i) {
        if (values == null || values.length <= i) {
            out.absent(column);
        } else {
            out.integer(column, values[i]);
        }
    }

    static void floatAt(RowWriter out, int column, float[] values, int i) {
        if (values == null || values.length <= i) {
            out.absent(column);
        } else {
            out.floatValue(column, values[i]);
        }
    }

    static int length(long[] values) {
        return values == null ? 0 : values.length;
    }

    static int length(int[] values) {
        return values == null ? 0 : values.length;
    }

    static int length(float[] values) {
        return values == null ? 0 : values.length;
    }
}
