package io.hcwatch.collect.alblogs;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What one SQS message from an S3 event notification says: the objects created, a test event
 * ({@code s3:TestEvent}, sent when the notification is configured), or records of other events
 * (removals, restores...) that the collector ignores. Accepts the notification as S3 sends it to
 * SQS and wrapped in an SNS envelope ({@code "Type":"Notification"}, S3 → SNS → SQS).
 */
record S3Event(Kind kind, List<ObjectRef> created, int ignored) {

    enum Kind { OBJECTS, TEST, OTHER }

    /**
     * An object an ObjectCreated event names. {@code key} is decoded: S3 sends it URL-encoded, with
     * spaces as '+'.
     */
    record ObjectRef(String bucket, String key, Long size, String etag, String versionId, String eventTime) {

        /** What recognises a redelivery: the same version of the same object. */
        String id() {
            return bucket + "/" + key + "@" + (versionId != null && !versionId.isEmpty() ? "v:" + versionId
                    : "e:" + (etag == null ? "" : etag));
        }

        String uri() {
            return "s3://" + bucket + "/" + key;
        }
    }

    /** A message body that is not an S3 event notification. */
    static final class NotAnEvent extends Exception {
        private static final long serialVersionUID = 1L;

        NotAnEvent(String message) {
            super(message, null, false, false);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    static S3Event parse(String body) throws NotAnEvent {
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (JacksonException e) {
            throw new NotAnEvent("not JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw new NotAnEvent("not a JSON object");
        }
        if ("Notification".equals(text(root, "Type")) && root.has("Message")) {
            return parse(text(root, "Message"));
        }
        if ("s3:TestEvent".equals(text(root, "Event"))) {
            return new S3Event(Kind.TEST, List.of(), 0);
        }
        JsonNode records = root.get("Records");
        if (records == null || !records.isArray()) {
            throw new NotAnEvent("no Records array and not an s3:TestEvent");
        }
        List<ObjectRef> created = new ArrayList<>();
        int ignored = 0;
        for (JsonNode r : records) {
            String name = text(r, "eventName");
            if (!"aws:s3".equals(text(r, "eventSource")) || name == null || !name.startsWith("ObjectCreated:")) {
                ignored++;
                continue;
            }
            JsonNode s3 = r.path("s3");
            String bucket = text(s3.path("bucket"), "name");
            String key = text(s3.path("object"), "key");
            if (bucket == null || key == null) {
                throw new NotAnEvent("an ObjectCreated record without s3.bucket.name or s3.object.key");
            }
            JsonNode size = s3.path("object").get("size");
            created.add(new ObjectRef(bucket, URLDecoder.decode(key, StandardCharsets.UTF_8),
                    size != null && size.canConvertToLong() ? size.asLong() : null, text(s3.path("object"), "eTag"),
                    text(s3.path("object"), "versionId"), text(r, "eventTime")));
        }
        return new S3Event(created.isEmpty() ? Kind.OTHER : Kind.OBJECTS, List.copyOf(created), ignored);
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node == null ? null : node.get(field);
        return v == null || !v.isTextual() ? null : v.textValue();
    }
}
