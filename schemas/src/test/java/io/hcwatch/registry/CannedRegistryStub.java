package io.hcwatch.registry;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * An HTTP server on loopback that answers each "METHOD raw-path" with canned responses, in order,
 * repeating the last one, and records every request it gets. Unknown routes answer 404 the way
 * Confluent's Jersey front does.
 */
final class CannedRegistryStub implements AutoCloseable {

    record Canned(int status, String body, boolean hang) {
    }

    record Recorded(String method, String rawPath, Map<String, List<String>> headers, String body) {
        String header(String name) {
            return headers.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().get(0))
                    .findFirst().orElse(null);
        }
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newFixedThreadPool(4);
    private final Map<String, Deque<Canned>> routes = new HashMap<>();
    private final List<Recorded> requests = new ArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);

    CannedRegistryStub() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Answers {@code route} ("GET /schemas/ids/1") with these responses in turn, the last one for good. */
    synchronized CannedRegistryStub on(String route, Canned... responses) {
        routes.put(route, new ArrayDeque<>(List.of(responses)));
        return this;
    }

    static Canned json(int status, String body) {
        return new Canned(status, body, false);
    }

    /** A response that never comes, until the stub closes: for request timeouts. */
    static Canned hang() {
        return new Canned(0, "", true);
    }

    synchronized List<Recorded> requests() {
        return List.copyOf(requests);
    }

    synchronized long count(String route) {
        return requests.stream().filter(r -> (r.method() + " " + r.rawPath()).equals(route)).count();
    }

    private void handle(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String rawPath = exchange.getRequestURI().getRawPath();
        Canned canned;
        synchronized (this) {
            requests.add(new Recorded(exchange.getRequestMethod(), rawPath, Map.copyOf(exchange.getRequestHeaders()), body));
            Deque<Canned> queue = routes.get(exchange.getRequestMethod() + " " + rawPath);
            canned = queue == null ? json(404, "{\"error_code\":404,\"message\":\"HTTP 404 Not Found\"}")
                    : queue.size() > 1 ? queue.poll() : queue.peek();
        }
        if (canned.hang()) {
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.close();
            return;
        }
        byte[] bytes = canned.body().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/vnd.schemaregistry.v1+json");
        exchange.sendResponseHeaders(canned.status(), bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        release.countDown();
        server.stop(0);
        executor.shutdownNow();
    }
}
