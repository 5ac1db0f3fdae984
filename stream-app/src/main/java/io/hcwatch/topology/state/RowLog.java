package io.hcwatch.topology.state;

import java.util.Arrays;

/**
 * The cells written to a part, as values (numbers, and strings by reference), not bytes: two logs
 * of the same values encode to the same bytes, as a {@link RowWriter}'s bytes depend on nothing
 * else. Comparing two costs a fraction of encoding one (no UTF-8, no table of strings seen).
 */
final class RowLog implements Cells {

    private static final byte VARINT = 0;
    private static final byte ROW = 1;
    private static final byte ABSENT = 2;
    private static final byte NULL = 3;
    private static final byte TRUE = 4;
    private static final byte FALSE = 5;
    private static final byte INTEGER = 6;
    private static final byte FLOAT = 7;
    private static final byte TEXT = 8;

    /** Each cell's kind and column, two bytes a cell; its number or string in the arrays below, in order. */
    private byte[] ops;
    private int opCount;
    private long[] numbers;
    private int numberCount;
    private String[] texts;
    private int textCount;

    RowLog() {
        ops = new byte[64];
        numbers = new long[16];
        texts = new String[16];
    }

    private RowLog(RowLog from) {
        ops = Arrays.copyOf(from.ops, from.opCount);
        opCount = from.opCount;
        numbers = Arrays.copyOf(from.numbers, from.numberCount);
        numberCount = from.numberCount;
        texts = Arrays.copyOf(from.texts, from.textCount);
        textCount = from.textCount;
    }

    /** A copy of exactly its size, to keep: a log filled afresh each commit keeps its room. */
    RowLog kept() {
        return new RowLog(this);
    }

    /** Empties the log for the next part, letting go of its strings. */
    void clear() {
        Arrays.fill(texts, 0, textCount, null);
        opCount = 0;
        numberCount = 0;
        textCount = 0;
    }

    /** Whether {@code other} holds the same cells: then the two encode to the same bytes. */
    boolean sameAs(RowLog other) {
        if (opCount != other.opCount || numberCount != other.numberCount || textCount != other.textCount
                || !Arrays.equals(ops, 0, opCount, other.ops, 0, opCount)
                || !Arrays.equals(numbers, 0, numberCount, other.numbers, 0, numberCount)) {
            return false;
        }
        for (int i = 0; i < textCount; i++) {
            if (!texts[i].equals(other.texts[i])) {
                return false;
            }
        }
        return true;
    }

    /** Writes the cells again, in order, to {@code out}. */
    void replay(Cells out) {
        int n = 0;
        int t = 0;
        for (int i = 0; i < opCount; i += 2) {
            int column = ops[i + 1];
            switch (ops[i]) {
                case VARINT -> out.varint(numbers[n++]);
                case ROW -> out.row(column);
                case ABSENT -> out.absent(column);
                case NULL -> out.nullValue(column);
                case TRUE -> out.bool(column, true);
                case FALSE -> out.bool(column, false);
                case INTEGER -> out.integer(column, numbers[n++]);
                case FLOAT -> out.floatValue(column, Float.intBitsToFloat((int) numbers[n++]));
                case TEXT -> out.text(column, texts[t++]);
                default -> throw new IllegalStateException("cell kind " + ops[i]);
            }
        }
    }

    private void op(byte kind, int column) {
        if (column < 0 || column > Byte.MAX_VALUE) {
            throw new IllegalArgumentException("column " + column);
        }
        if (opCount + 2 > ops.length) {
            ops = Arrays.copyOf(ops, Math.max(16, ops.length * 2));
        }
        ops[opCount++] = kind;
        ops[opCount++] = (byte) column;
    }

    private void number(long x) {
        if (numberCount == numbers.length) {
            numbers = Arrays.copyOf(numbers, Math.max(8, numbers.length * 2));
        }
        numbers[numberCount++] = x;
    }

    @Override
    public void varint(long x) {
        op(VARINT, 0);
        number(x);
    }

    @Override
    public void row(int columns) {
        op(ROW, columns);
    }

    @Override
    public void absent(int column) {
        op(ABSENT, column);
    }

    @Override
    public void nullValue(int column) {
        op(NULL, column);
    }

    @Override
    public void bool(int column, boolean b) {
        op(b ? TRUE : FALSE, column);
    }

    @Override
    public void integer(int column, long x) {
        op(INTEGER, column);
        number(x);
    }

    /** Kept as its raw bits: what {@link RowWriter} writes, so a NaN's payload counts too. */
    @Override
    public void floatValue(int column, float f) {
        op(FLOAT, column);
        number(Float.floatToRawIntBits(f));
    }

    @Override
    public void text(int column, String text) {
        op(TEXT, column);
        if (textCount == texts.length) {
            texts = Arrays.copyOf(texts, Math.max(8, texts.length * 2));
        }
        texts[textCount++] = text;
    }
}
