package io.hcwatch.registry;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** What the client and the server of the Schema Registry REST API agree on. */
final class RegistryProtocol {

    static final String MEDIA_TYPE = "application/vnd.schemaregistry.v1+json";
    static final String ACCEPT = MEDIA_TYPE + ", application/vnd.schemaregistry+json; q=0.9, application/json; q=0.5";
    static final ObjectMapper JSON = new ObjectMapper();

    private RegistryProtocol() {
    }

    /** Encodes one path segment; URLEncoder alone is for forms and would turn spaces into '+'. */
    static String encodeSegment(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** Decodes one raw path segment; a '+' in a path is a plus sign, not a space. */
    static String decodeSegment(String rawSegment) {
        return URLDecoder.decode(rawSegment.replace("+", "%2B"), StandardCharsets.UTF_8);
    }
}
