package io.hcwatch.topology.state;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.BeanPropertyWriter;
import com.fasterxml.jackson.databind.ser.PropertyWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.function.Function;
import java.util.Set;
import java.util.TreeSet;

/**
 * A state class's fields as {@link MonitoredCodec#STRICT} writes them, in its order, some left out
 * or written by the caller in their place: a part's JSON written from the live object is then the
 * JSON its tree gave with those fields moved out, without the tree. The fields are Jackson's own
 * (its property writers), so that a field added to the class is written as before, not dropped.
 */
final class BeanJson {

    /** Writes a field's non-null value in place of Jackson's. */
    interface FieldWriter {
        void write(Object value, JsonGenerator g, SerializerProvider p) throws IOException;
    }

    private static final FieldWriter LEFT_OUT = (value, g, p) -> { };

    private final Class<?> type;
    private final BeanPropertyWriter[] fields;
    private final FieldWriter[] instead;
    /** Write the fields before and after the bean's own (a version; what a part leaves in the place of what it took). */
    private final FieldWriter before;
    private final FieldWriter after;

    private BeanJson(Class<?> type, BeanPropertyWriter[] fields, FieldWriter[] instead, FieldWriter before, FieldWriter after) {
        this.type = type;
        this.fields = fields;
        this.instead = instead;
        this.before = before;
        this.after = after;
    }

    /** {@code type}'s fields, all written by Jackson. */
    static BeanJson of(Class<?> type) {
        List<BeanPropertyWriter> found = new ArrayList<>();
        try {
            Iterator<PropertyWriter> it = MonitoredCodec.STRICT.getSerializerProviderInstance()
                    .findValueSerializer(type).properties();
            it.forEachRemaining(w -> found.add((BeanPropertyWriter) w));
        } catch (JsonMappingException e) {
            throw new IllegalStateException("no JSON fields for " + type.getName(), e);
        }
        BeanPropertyWriter[] fields = found.toArray(new BeanPropertyWriter[0]);
        return new BeanJson(type, fields, new FieldWriter[fields.length], LEFT_OUT, LEFT_OUT);
    }

    /** The same, {@code names} left out. */
    BeanJson without(String... names) {
        BeanJson out = this;
        for (String name : names) {
            out = out.instead(name, LEFT_OUT);
        }
        return out;
    }

    /** The same, the field {@code name} (when not null) written by {@code writer}. */
    BeanJson instead(String name, FieldWriter writer) {
        FieldWriter[] copy = instead.clone();
        copy[index(name)] = writer;
        return new BeanJson(type, fields, copy, before, after);
    }

    /** The same, {@code writer} writing fields before the bean's own. */
    BeanJson first(FieldWriter writer) {
        return new BeanJson(type, fields, instead, writer, after);
    }

    /** The same, {@code writer} writing fields after the bean's own. */
    BeanJson then(FieldWriter writer) {
        return new BeanJson(type, fields, instead, before, writer);
    }

    /** Writes {@code bean} as a JSON object. */
    void writeObject(Object bean, JsonGenerator g, SerializerProvider p) throws IOException {
        g.writeStartObject();
        before.write(bean, g, p);
        writeFields(bean, g, p);
        after.write(bean, g, p);
        g.writeEndObject();
    }

    /**
     * Refuses a class whose stored fields are not {@code expected}: a part written field by field
     * from it would leave a new field out, or name one it no longer has.
     */
    BeanJson expect(String... expected) {
        Set<String> names = new TreeSet<>();
        for (BeanPropertyWriter f : fields) {
            names.add(f.getName());
        }
        if (!names.equals(new TreeSet<>(Arrays.asList(expected)))) {
            throw new IllegalStateException(type.getSimpleName() + " stores fields " + names + ", its parts are written for "
                    + new TreeSet<>(Arrays.asList(expected)));
        }
        return this;
    }

    /** Reads the field {@code name} of a bean as Jackson does (a getter it names runs). */
    Function<Object, Object> reader(String name) {
        int i = index(name);
        return bean -> get(bean, i);
    }

    /** Writes the fields of {@code bean} into the object {@code g} has open. */
    private void writeFields(Object bean, JsonGenerator g, SerializerProvider p) throws IOException {
        for (int i = 0; i < fields.length; i++) {
            if (instead[i] == null) {
                try {
                    fields[i].serializeAsField(bean, g, p);
                } catch (IOException e) {
                    throw e;
                } catch (Exception e) {
                    throw new UncheckedIOException(new IOException("could not encode " + type.getSimpleName(), e));
                }
            } else if (instead[i] != LEFT_OUT) {
                Object value = get(bean, i);
                if (value != null) {
                    g.writeFieldName(fields[i].getName());
                    instead[i].write(value, g, p);
                }
            }
        }
    }

    private Object get(Object bean, int i) {
        try {
            return fields[i].get(bean);
        } catch (Exception e) {
            throw new IllegalStateException("could not read " + type.getSimpleName() + "." + fields[i].getName(), e);
        }
    }

    private int index(String name) {
        for (int i = 0; i < fields.length; i++) {
            if (fields[i].getName().equals(name)) {
                return i;
            }
        }
        throw new IllegalStateException(type.getSimpleName() + " stores no field '" + name + "' (has "
                + Arrays.stream(fields).map(BeanPropertyWriter::getName).toList() + ")");
    }
}
