package io.hcwatch.collect.aws;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A loopback HTTP server for an AWS API stand-in (test code): what the stand-ins share. Each answers
 * the real SDK's requests in the wire format the API uses; how hostile it is (errors that echo the
 * request, 500s, malformed bodies) is up to the stand-in.
 */
public abstract class StandInServer implements AutoCloseable {

    private final HttpServer server;
    private final ExecutorService executor = Executors.newFixedThreadPool(4);

    protected StandInServer() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        server.createContext("/", exchange -> {
            try (exchange) {
                handle(exchange);
            } catch (RuntimeException e) {
                send(exchange, 500, "text/plain", ("stand-in failed: " + e).getBytes(StandardCharsets.UTF_8));
            }
        });
        server.setExecutor(executor);
        server.start();
    }

    protected abstract void handle(HttpExchange exchange) throws IOException;

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    protected static void send(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.getResponseHeaders().set("x-amzn-RequestId", "stand-in-" + System.nanoTime());
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    /** The request line, headers and body as one text: what a careless server echoes into an error. */
    protected static String echo(HttpExchange exchange, String body) {
        StringBuilder sb = new StringBuilder(exchange.getRequestMethod()).append(' ').append(exchange.getRequestURI()).append('\n');
        exchange.getRequestHeaders().forEach((k, v) -> sb.append(k).append(": ").append(String.join(",", v)).append('\n'));
        return sb.append('\n').append(body).toString();
    }

    protected static Map<String, String> form(String body) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String pair : body.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            out.put(k, v);
        }
        return out;
    }

    protected static String xml(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
