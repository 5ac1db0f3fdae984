package io.hcwatch.observability;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The operational endpoints both apps serve: {@code /metrics} (Prometheus text format),
 * {@code /health} (the process answers; touches nothing external, so a slow broker never makes an
 * orchestrator kill a healthy process) and {@code /ready} (200 only while {@code ready} holds).
 */
public final class EndpointServer implements AutoCloseable {

    private static final String TEXT = "text/plain; charset=utf-8";
    /** Prometheus text exposition format 0.0.4, which every Prometheus version scrapes. */
    private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

    private final HttpServer server;
    private final ExecutorService executor;

    private EndpointServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /**
     * @param host address to bind, e.g. {@code 0.0.0.0} in a container or {@code 127.0.0.1}
     * @param port 0 for an ephemeral port (see {@link #port()})
     */
    public static EndpointServer start(String host, int port, PrometheusMeterRegistry registry, BooleanSupplier ready) {
        return start(host, port, registry, ready, List::of);
    }

    /**
     * As {@link #start(String, int, PrometheusMeterRegistry, BooleanSupplier)}, and {@code /ready}
     * adds the lines {@code notes} gives below its first line: conditions an operator should see
     * that do not decide readiness (the sink's deliveries held by a PagerDuty outage).
     */
    public static EndpointServer start(String host, int port, PrometheusMeterRegistry registry, BooleanSupplier ready,
            Supplier<List<String>> notes) {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(host, port), 0);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve metrics on " + host + ":" + port, e);
        }
        AtomicInteger threads = new AtomicInteger();
        // Two threads: a slow scrape must not hold up a liveness probe.
        ExecutorService executor = Executors.newFixedThreadPool(2, r -> {
            Thread thread = new Thread(r, "hcwatch-endpoints-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        server.setExecutor(executor);
        server.createContext("/metrics", get(exchange -> respond(exchange, 200, PROMETHEUS_TEXT, registry.scrape())));
        server.createContext("/health", get(exchange -> respond(exchange, 200, TEXT, "ok\n")));
        server.createContext("/ready", get(exchange -> {
            boolean isReady = ready.getAsBoolean();
            StringBuilder body = new StringBuilder(isReady ? "ready\n" : "not ready\n");
            notes.get().forEach(note -> body.append(note).append('\n'));
            respond(exchange, isReady ? 200 : 503, TEXT, body.toString());
        }));
        server.start();
        return new EndpointServer(server, executor);
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** Wraps a handler so that only exact paths with GET or HEAD reach it. */
    private static HttpHandler get(HttpHandler handler) {
        return exchange -> {
            try (exchange) {
                String method = exchange.getRequestMethod();
                if (!exchange.getRequestURI().getPath().equals(exchange.getHttpContext().getPath())) {
                    respond(exchange, 404, TEXT, "not found\n");
                } else if (!method.equals("GET") && !method.equals("HEAD")) {
                    exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                    respond(exchange, 405, TEXT, "method not allowed\n");
                } else {
                    handler.handle(exchange);
                }
            }
        };
    }

    private static void respond(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        if (exchange.getRequestMethod().equals("HEAD")) {
            exchange.sendResponseHeaders(status, -1);
            return;
        }
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
