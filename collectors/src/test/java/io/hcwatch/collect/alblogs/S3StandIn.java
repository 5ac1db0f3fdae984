package io.hcwatch.collect.alblogs;

import com.sun.net.httpserver.HttpExchange;
import io.hcwatch.collect.aws.StandInServer;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * S3 GetObject on loopback for the real SDK (test code), path-style ({@code GET /bucket/key}):
 * the object's bytes with ETag and Content-Length, or the REST error XML
 * ({@code <Error><Code>NoSuchKey</Code>...}) with 404, or 403 AccessDenied for keys a test denies.
 */
final class S3StandIn extends StandInServer {

    final Map<String, byte[]> objects = new ConcurrentHashMap<>();
    final Map<String, Boolean> denied = new ConcurrentHashMap<>();
    final List<String> gets = new CopyOnWriteArrayList<>();
    /** When set, a denied key's 403 quotes the whole request, headers included. */
    volatile boolean echoDenied;

    /** @return the ETag as S3 gives it in events (hex MD5, no quotes) */
    String put(String bucket, String key, byte[] bytes) {
        objects.put(bucket + "/" + key, bytes);
        return etag(bytes);
    }

    static String etag(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    protected void handle(HttpExchange exchange) throws IOException {
        String path = URLDecoder.decode(exchange.getRequestURI().getRawPath().replace("+", "%2B"), StandardCharsets.UTF_8)
                .substring(1);
        gets.add(path);
        if (!exchange.getRequestMethod().equals("GET")) {
            error(exchange, 405, "MethodNotAllowed", "The specified method is not allowed against this resource.", path);
            return;
        }
        if (denied.containsKey(path)) {
            error(exchange, 403, "AccessDenied", echoDenied ? "Access Denied for " + echo(exchange, "") : "Access Denied", path);
            return;
        }
        byte[] body = objects.get(path);
        if (body == null) {
            error(exchange, 404, "NoSuchKey", "The specified key does not exist.", path);
            return;
        }
        exchange.getResponseHeaders().set("ETag", "\"" + etag(body) + "\"");
        exchange.getResponseHeaders().set("Last-Modified", "Wed, 02 Dec 2026 07:35:00 GMT");
        exchange.getResponseHeaders().set("Accept-Ranges", "bytes");
        send(exchange, 200, "binary/octet-stream", body);
    }

    private static void error(HttpExchange exchange, int status, String code, String message, String path) throws IOException {
        String key = path.contains("/") ? path.substring(path.indexOf('/') + 1) : path;
        String xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>" + code + "</Code><Message>" + xml(message)
                + "</Message><Key>" + xml(key) + "</Key><RequestId>4442587FB7D0A2F9</RequestId>"
                + "<HostId>stand-in</HostId></Error>";
        send(exchange, status, "application/xml", xml.getBytes(StandardCharsets.UTF_8));
    }
}
