package io.hcwatch.topology.state;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hcwatch.alert.Monitored;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * A monitored key's state as versioned JSON: {@code {"v": N, "time": ..., "state": ..., "alerts": ...}}.
 * State written by an older release is brought up to this one's layout by {@link StateMigrations}
 * before it is read; state written by a newer release, or holding a field this release does not
 * know (which only a newer release writes), is refused loudly with {@link NewerLayoutException}:
 * after a downgrade, silently reset detector state would forget firing alerts (their resolves would
 * never be sent).
 */
public final class MonitoredCodec<S> implements StateCodec<Monitored<S>> {

    /** The layout this release writes. 0 is the unversioned layout of the first releases. */
    public static final int VERSION = 1;

    /**
     * A state class's public fields are its stored layout (no getters or setters take part), nulls
     * left out; a field this release does not know is refused.
     */
    static final ObjectMapper STRICT = JsonMapper.builder()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true)
            .configure(MapperFeature.AUTO_DETECT_GETTERS, false)
            .configure(MapperFeature.AUTO_DETECT_IS_GETTERS, false)
            .configure(MapperFeature.AUTO_DETECT_SETTERS, false)
            .visibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.PUBLIC_ONLY)
            .serializationInclusion(JsonInclude.Include.NON_NULL)
            .build();

    /** {@code {"v":N,}: the start of every encoded state, before the key's own fields. */
    private static final byte[] VERSION_FIELD = ("{\"v\":" + VERSION + ",").getBytes(StandardCharsets.UTF_8);

    private final JavaType type;
    private final UnaryOperator<ObjectNode> fromUnversioned;
    private final Consumer<S> beforeEncode;

    /**
     * @param fromUnversioned turns a state of layout 0 (the kind's state object with its clock and
     *                        alerts inside) into layout 1
     * @param beforeEncode    copies live structures (e.g. sketches) into the fields that are stored
     */
    public MonitoredCodec(Class<S> stateType, UnaryOperator<ObjectNode> fromUnversioned, Consumer<S> beforeEncode) {
        this.type = STRICT.getTypeFactory().constructParametricType(Monitored.class, stateType);
        this.fromUnversioned = fromUnversioned;
        this.beforeEncode = beforeEncode;
    }

    /**
     * The version field goes in front of the key's own fields by splicing bytes: the same JSON as
     * building a tree and writing it, without the tree (encoding the trees of every changed key
     * was most of a commit, ~6% of a stream thread).
     */
    @Override
    public byte[] encode(Monitored<S> value) {
        beforeEncode.accept(value.state);
        byte[] fields;
        try {
            fields = STRICT.writeValueAsBytes(value);
        } catch (IOException e) {
            throw new UncheckedIOException("could not encode monitor state", e);
        }
        boolean empty = fields.length == 2;
        byte[] out = new byte[VERSION_FIELD.length + fields.length - 1 - (empty ? 1 : 0)];
        System.arraycopy(VERSION_FIELD, 0, out, 0, VERSION_FIELD.length);
        if (empty) {
            out[VERSION_FIELD.length - 1] = '}';
        } else {
            System.arraycopy(fields, 1, out, VERSION_FIELD.length, fields.length - 1);
        }
        return out;
    }

    /** The value as the tree its whole encoding writes (without the version), its live structures copied in first. */
    ObjectNode tree(Monitored<S> value) {
        settle(value);
        return STRICT.valueToTree(value);
    }

    /** Copies the value's live structures into the fields that are stored. */
    void settle(Monitored<S> value) {
        beforeEncode.accept(value.state);
    }

    /** A value from its tree of the current layout (without the version). */
    Monitored<S> fromTree(ObjectNode tree) {
        try {
            return STRICT.treeToValue(tree, type);
        } catch (UnrecognizedPropertyException e) {
            throw newerField(e);
        } catch (IOException e) {
            throw new UncheckedIOException("could not decode monitor state from its changelog: " + e.getMessage(), e);
        }
    }

    private static NewerLayoutException newerField(UnrecognizedPropertyException e) {
        return new NewerLayoutException("monitor state holds a field this hcwatch does not know, '" + e.getPropertyName()
                + "' at " + e.getPathReference() + ", written by a newer one (roll forward, or reset the application)", e);
    }

    /**
     * The JSON object {@code bytes} hold (its version field still in), refused as a newer layout when
     * its version {@code "v"} (0 when absent) is above {@code readsUpTo}.
     */
    static ObjectNode versionedObject(byte[] bytes, int readsUpTo) {
        JsonNode tree;
        try {
            tree = STRICT.readTree(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException("could not decode monitor state from its changelog: " + e.getMessage(), e);
        }
        if (!(tree instanceof ObjectNode node)) {
            throw new IllegalStateException("monitor state in the changelog is not a JSON object");
        }
        int version = node.path("v").asInt(0);
        if (version > readsUpTo) {
            throw new NewerLayoutException("monitor state of layout " + version + " was written by a newer hcwatch;"
                    + " this one reads layouts up to " + readsUpTo + " (roll forward, or reset the application)");
        }
        return node;
    }

    @Override
    public Monitored<S> decode(byte[] bytes) {
        ObjectNode node = versionedObject(bytes, VERSION);
        ObjectNode current = node.path("v").asInt(0) == 0 ? fromUnversioned.apply(node) : node;
        current.remove("v");
        return fromTree(current);
    }
}
