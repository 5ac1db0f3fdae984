package io.hcwatch.topology.state;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * State kept as plain JSON with no layout version of its own (the incident books): unknown fields
 * are ignored and missing ones keep their defaults. The detectors' state does not use it: it goes
 * through {@link MonitoredCodec}, which versions its layout and refuses a newer one per key.
 */
public final class JsonStateCodec<V> implements StateCodec<V> {

    /** The detectors' field rules ({@link MonitoredCodec#STRICT}), except that an unknown field is ignored. */
    static final ObjectMapper MAPPER = MonitoredCodec.STRICT.copy()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private final Class<V> type;
    private final java.util.function.Consumer<V> beforeEncode;

    public JsonStateCodec(Class<V> type) {
        this(type, v -> { });
    }

    /** {@code beforeEncode} copies live structures (e.g. sketches) into the fields that are stored. */
    public JsonStateCodec(Class<V> type, java.util.function.Consumer<V> beforeEncode) {
        this.type = type;
        this.beforeEncode = beforeEncode;
    }

    @Override
    public byte[] encode(V value) {
        beforeEncode.accept(value);
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (IOException e) {
            throw new UncheckedIOException("could not encode " + type.getSimpleName(), e);
        }
    }

    @Override
    public V decode(byte[] bytes) {
        try {
            return MAPPER.readValue(bytes, type);
        } catch (IOException e) {
            throw new UncheckedIOException("could not decode " + type.getSimpleName() + " from its changelog", e);
        }
    }
}
