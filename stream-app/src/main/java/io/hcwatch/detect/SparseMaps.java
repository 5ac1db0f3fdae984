package io.hcwatch.detect;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Maps of monitored state that are empty for most keys most of the time (a target group's
 * departed targets, its alerts, its zone map): such a field holds the one shared empty map until
 * its first entry, and goes back to it when emptied. An empty map that has held entries keeps its
 * table and cached views (about 150 bytes); with a hundred thousand idle keys that is the heap.
 * The shared map is immutable: code that adds to such a field first takes {@link #writable}.
 * It is stored as {@code {}}, as an empty map always was.
 */
public final class SparseMaps {

    private SparseMaps() {
    }

    /** The shared empty map, for a field that has no entries yet. */
    public static <K, V> Map<K, V> none() {
        return Map.of();
    }

    /** {@code m} itself when it can take entries, else a new insertion-ordered map with its entries. */
    public static <K, V> Map<K, V> writable(Map<K, V> m) {
        return m instanceof HashMap ? m : new LinkedHashMap<>(m);
    }

    /** The shared empty map when {@code m} is empty, else {@code m}. */
    public static <K, V> Map<K, V> compact(Map<K, V> m) {
        return m.isEmpty() ? Map.of() : m;
    }
}
