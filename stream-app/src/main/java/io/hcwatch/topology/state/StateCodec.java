package io.hcwatch.topology.state;

/** Turns a state object into bytes for its changelog and back. Must round-trip exactly. */
public interface StateCodec<V> {

    byte[] encode(V value);

    V decode(byte[] bytes);
}
