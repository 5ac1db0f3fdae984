package io.hcwatch.replay;

import io.hcwatch.topology.state.DetachedStore;
import io.hcwatch.topology.state.ObjectStore;
import io.hcwatch.topology.state.StateCodec;

/**
 * The stores a replay keeps its processors' state in: in memory only, unless a benchmark wants
 * them written behind to something it measures (bench fleet counts the monitors' changelog bytes).
 */
public interface ReplayStores {

    /** Every store in memory only: what replay itself uses. */
    ReplayStores DETACHED = new ReplayStores() {
        @Override
        public <V> ObjectStore<V> store(String name, StateCodec<V> codec) {
            return new DetachedStore<>(name);
        }
    };

    /** The store {@code name} (a monitor's, its clock's, or an ingest's pending store), whose values {@code codec} encodes. */
    <V> ObjectStore<V> store(String name, StateCodec<V> codec);
}
