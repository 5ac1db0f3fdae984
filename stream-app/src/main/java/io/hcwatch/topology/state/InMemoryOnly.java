package io.hcwatch.topology.state;

import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.query.Position;

/** A state store that lives in this process's memory only: nothing to initialise, flush or restore. */
public interface InMemoryOnly extends StateStore {

    @Override
    default void init(StateStoreContext context, StateStore root) {
    }

    @Override
    @SuppressWarnings("deprecation")
    default void flush() {
    }

    @Override
    default boolean persistent() {
        return false;
    }

    @Override
    default boolean isOpen() {
        return true;
    }

    @Override
    default Position getPosition() {
        return Position.emptyPosition();
    }
}
