package io.hcwatch.topology.state;

import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A state store that leaves Kafka Streams' life cycle (init, flush, offsets, close) to the
 * changelogged store it wraps, so that a subclass holds only what it adds in front of it.
 */
abstract class ForwardingStateStore implements StateStore {

    protected final KeyValueStore<Bytes, byte[]> inner;

    ForwardingStateStore(KeyValueStore<Bytes, byte[]> inner) {
        this.inner = inner;
    }

    @Override
    public String name() {
        return inner.name();
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        inner.init(context, root);
    }

    @Override
    @SuppressWarnings("deprecation")
    public void flush() {
        inner.flush();
    }

    @Override
    public void commit(Map<TopicPartition, Long> changelogOffsets) {
        inner.commit(changelogOffsets);
    }

    @Override
    public Long committedOffset(TopicPartition partition) {
        return inner.committedOffset(partition);
    }

    @Override
    public boolean managesOffsets() {
        return inner.managesOffsets();
    }

    @Override
    public void close() {
        inner.close();
    }

    @Override
    public boolean persistent() {
        return inner.persistent();
    }

    @Override
    public boolean isOpen() {
        return inner.isOpen();
    }

    @Override
    public Position getPosition() {
        return inner.getPosition();
    }
}
