package io.hcwatch.parse;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads a line HAProxy wrote with {@code %{+json}o} (HAProxy 3): one JSON object whose keys are the
 * fields' names ({@code %(name)alias}, else the alias). Spacing and key order are whatever HAProxy
 * writes; a field not in the object is absent, as is a JSON null or {@code "-"}.
 */
final class LogFormatJson {

    private static final JsonFactory JSON = new JsonFactory();

    private LogFormatJson() {
    }

    /** @return null when the line is such an object (its values are then read), else why not */
    static LogFormat.Miss read(LogFormat format, String line, int bodyStart, LogFormatValues values) {
        int open = bodyStart;
        while (open < line.length() && line.charAt(open) == ' ') {
            open++;
        }
        if (open >= line.length() || line.charAt(open) != '{') {
            return new LogFormat.Miss(Rejections.reject(RejectReason.BAD_JSON, "HAProxy message", line.substring(bodyStart),
                    "a JSON object, as '" + Rejections.shown(format.toString()) + "' writes"), 0);
        }
        Map<String, String> fields = new HashMap<>();
        try (JsonParser p = JSON.createParser(line.substring(open))) {
            p.nextToken();
            JsonToken t;
            while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken v = p.nextToken();
                if (v == JsonToken.START_OBJECT || v == JsonToken.START_ARRAY) {
                    p.skipChildren();
                } else if (v != JsonToken.VALUE_NULL) {
                    fields.put(name, p.getText());
                }
            }
            if (t != JsonToken.END_OBJECT) {
                throw new IOException("the object is not closed");
            }
        } catch (IOException e) {
            return new LogFormat.Miss(Rejections.reject(RejectReason.BAD_JSON, "HAProxy message", line.substring(open),
                    "a JSON object: " + Rejections.shown(e.getMessage())), 1);
        }
        for (LogFormatNode node : format.nodes) {
            if (node.kind() != LogFormatNode.Kind.FIELD) {
                continue;
            }
            String v = fields.get(node.name());
            String expected = v == null ? values.set(node, null, 0, 0) : values.set(node, v, 0, v.length());
            if (expected != null) {
                return new LogFormat.Miss(Rejections.reject(RejectReason.BAD_FIELD, "JSON field \"" + node.name() + "\" ("
                        + node.alias() + ")", v, expected), 1);
            }
        }
        return null;
    }
}
