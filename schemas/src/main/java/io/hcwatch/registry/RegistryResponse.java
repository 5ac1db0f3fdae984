package io.hcwatch.registry;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.util.LinkedHashMap;
import java.util.Map;

/** One answer of {@link SchemaRegistryServer}: a status and a JSON body. */
record RegistryResponse(int status, String body) {

    static RegistryResponse ok(Object json) {
        try {
            return new RegistryResponse(200, RegistryProtocol.JSON.writeValueAsString(json));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + json.getClass().getSimpleName() + " as JSON", e);
        }
    }

    /** A body that already is JSON text, such as a schema served unwrapped. */
    static RegistryResponse okRaw(String json) {
        return new RegistryResponse(200, json);
    }

    /** Confluent's error body: {@code {"error_code": ..., "message": ...}}. */
    static RegistryResponse error(int status, int errorCode, String message) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error_code", errorCode);
        body.put("message", message);
        try {
            return new RegistryResponse(status, RegistryProtocol.JSON.writeValueAsString(body));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write an error body", e);
        }
    }

    static RegistryResponse error(SchemaRegistryException e) {
        return error(e.status(), e.errorCode(), e.registryMessage());
    }
}
