package io.hcwatch.bench;

import java.util.List;

/** A corpus handed out line after line in a ring: a different line each call, nothing allocated. */
final class LineCycle {

    private final String[] lines;
    private int next;

    /** @param lines a power of two of them, so the ring wraps with a mask */
    LineCycle(List<String> lines) {
        if (Integer.bitCount(lines.size()) != 1) {
            throw new IllegalArgumentException("need a power of two of lines, got " + lines.size());
        }
        this.lines = lines.toArray(new String[0]);
    }

    String next() {
        String line = lines[next];
        next = (next + 1) & (lines.length - 1);
        return line;
    }
}
