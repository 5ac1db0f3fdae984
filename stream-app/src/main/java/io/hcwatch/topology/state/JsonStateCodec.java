package io.hcwatch.topology.state;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * State kept as plain JSON with no layout version of its own (the incident books): unknown fields
 * are ignored and missing ones keep their defaults. The detectors' state does not use it: it goes
 * through {@link MonitoredCodec}, which versions its layout and refuses a newer one per key.
 */
public final class JsonStateCodec<V> implements StateCodec<V> {

    static final ObjectMapper MAPPER = JsonMapper.builder()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
            .configure(MapperFeature.AUTO_DETECT_GETTERS, false)
            .configure(MapperFeature.AUTO_DETECT_IS_GETTERS, false)
            .configure(MapperFeature.AUTO_DETECT_SETTERS, false)
            .visibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.PUBLIC_ONLY)
            .serializationInclusion(JsonInclude.Include.NON_NULL)
            .build();

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
