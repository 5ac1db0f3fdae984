package io.hcwatch.topology.state;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/** JSON written straight to bytes by {@link MonitoredCodec#STRICT}'s generator, after a prefix (a part's frame). */
final class JsonBytes {

    /** What writes one JSON value. */
    interface Body {
        void write(JsonGenerator g, SerializerProvider p) throws IOException;
    }

    private JsonBytes() {
    }

    static byte[] write(byte[] prefix, Body body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        out.writeBytes(prefix);
        try (JsonGenerator g = MonitoredCodec.STRICT.createGenerator(out)) {
            body.write(g, MonitoredCodec.STRICT.getSerializerProviderInstance());
        } catch (IOException e) {
            throw new UncheckedIOException("could not encode monitor state", e);
        }
        return out.toByteArray();
    }

    /** {@code value} as Jackson writes it. */
    static byte[] value(byte[] prefix, Object value) {
        return write(prefix, (g, p) -> p.defaultSerializeValue(value, g));
    }
}
