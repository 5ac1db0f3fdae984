package io.hcwatch.topology.state;

/**
 * One part of one key as last encoded: its cells ({@link RowLog}) and their bytes. A commit logs
 * the part's cells from the live objects, and encodes them only when they differ from the last
 * ones; else the part is the bytes it was. Whatever changed the live objects, and however, the
 * cells compared are the values the bytes are written from, so no change can be missed.
 */
final class CachedPart {

    private RowLog cells;
    private byte[] bytes;

    /**
     * The part's bytes for the cells in {@code fresh}: those of the last call when its cells were
     * the same, else {@code fresh} encoded (and kept, trimmed, for the next call).
     */
    byte[] bytes(RowLog fresh) {
        if (cells == null || !cells.sameAs(fresh)) {
            RowWriter out = new RowWriter(PartedMonitoredCodec.FRAME);
            fresh.replay(out);
            bytes = out.bytes();
            cells = fresh.kept();
        }
        return bytes;
    }
}
