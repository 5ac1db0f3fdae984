package io.hcwatch.topology.state;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which keys a {@link WriteBehindStore}'s next commit writes: those changed since the last one (a
 * key changed a thousand times is written once), tombstones for those deleted, and tombstones
 * that wait a commit longer ({@link WriteBehindStore#deleteAfterNextCommit}). It also knows which
 * keys the changelogged store holds once everything has been loaded, so a key written and deleted
 * between two commits costs nothing.
 */
final class CommitPlan {

    private final Set<String> dirty = new HashSet<>();
    /** The key last added to {@link #dirty} (same instance), while it is there. */
    private String lastDirty;
    /** Keys the changelogged store holds (complete once everything is loaded): deleting another needs no tombstone. */
    private final Set<String> stored = new HashSet<>();
    /** Keys deleted since the last commit whose tombstones wait for the commit after it. */
    private Set<String> retiring = new HashSet<>();
    /** Tombstones the next commit writes: the commit after their deletion has made durable what replaced them. */
    private Set<String> retired = new HashSet<>();
    private boolean allLoaded;

    /**
     * {@code key} changed. The key marked last is not looked up again: the ingest marks its one
     * pending entry, and a monitor its clock, on every record.
     */
    void changed(String key) {
        if (key != lastDirty) {
            dirty.add(key);
            lastDirty = key;
        }
    }

    boolean isLastChanged(String key) {
        return key == lastDirty;
    }

    /** What was done to {@code key} since the last commit is undone: the store reads it back. */
    void forget(String key) {
        dirty.remove(key);
        lastDirty = null;
    }

    void deleted(String key) {
        if (allLoaded && !stored.contains(key)) {
            // written and deleted between two commits: the changelog never saw it
            forget(key);
        } else {
            dirty.add(key);
        }
    }

    void deletedAfterNextCommit(String key) {
        forget(key);
        if (!(allLoaded && !stored.contains(key))) {
            retiring.add(key);
        }
    }

    /** Whether {@code key}'s value in the changelogged store is stale: deleted here, its tombstone not yet written. */
    boolean awaitsTombstone(String key) {
        return retiring.contains(key) || retired.contains(key);
    }

    /** Whether the changelogged store's value of {@code key} must not replace what is held in memory. */
    boolean heldInMemory(String key) {
        return dirty.contains(key) || awaitsTombstone(key);
    }

    void loaded(String key) {
        stored.add(key);
    }

    boolean allLoaded() {
        return allLoaded;
    }

    void allLoaded(boolean loaded) {
        allLoaded = loaded;
    }

    /**
     * The keys this commit writes (each then reported through {@link #written}): the changed and
     * deleted ones, and the tombstones whose commit has come; the tombstones deleted since the last
     * commit move one commit closer.
     */
    List<String> commit(Set<String> inMemory) {
        for (String key : retired) {
            if (!inMemory.contains(key)) {
                dirty.add(key);
            }
        }
        retired = retiring;
        retiring = new HashSet<>();
        List<String> out = new ArrayList<>(dirty);
        dirty.clear();
        lastDirty = null;
        return out;
    }

    /** {@code key} was written to the changelogged store: a value, or a tombstone. */
    void written(String key, boolean tombstone) {
        if (tombstone) {
            stored.remove(key);
        } else {
            stored.add(key);
        }
    }

    void clear() {
        dirty.clear();
        lastDirty = null;
        stored.clear();
        retiring.clear();
        retired.clear();
        allLoaded = false;
    }
}
