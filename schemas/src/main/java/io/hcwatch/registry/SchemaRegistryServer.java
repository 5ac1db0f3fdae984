package io.hcwatch.registry;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves an {@link InMemorySchemaRegistry} over the Confluent Schema Registry REST API on
 * loopback, so tools outside the JVM (kcat, other clients) can use the demo's registry.
 */
public final class SchemaRegistryServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SchemaRegistryServer.class);
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final InMemorySchemaRegistry registry;
    private final RegistryRoutes routes;
    private final int requestedPort;
    private HttpServer server;
    private ExecutorService executor;

    /** A server on a free loopback port. */
    public SchemaRegistryServer(InMemorySchemaRegistry registry) {
        this(registry, 0);
    }

    /** A server on {@code port} of the loopback address (0 for any free port). */
    public SchemaRegistryServer(InMemorySchemaRegistry registry, int port) {
        this.registry = registry;
        this.routes = new RegistryRoutes(registry);
        this.requestedPort = port;
    }

    public synchronized SchemaRegistryServer start() {
        if (server != null) {
            return this;
        }
        int instance = INSTANCES.incrementAndGet();
        AtomicInteger threads = new AtomicInteger();
        executor = Executors.newFixedThreadPool(4, task -> {
            Thread thread = new Thread(task, "schema-registry-" + instance + "-http-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), requestedPort), 0);
        } catch (IOException e) {
            executor.shutdownNow();
            throw new UncheckedIOException("cannot listen on loopback port " + requestedPort, e);
        }
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
        LOG.info("schema registry listening on {}", url());
        return this;
    }

    public synchronized void stop() {
        if (server == null) {
            return;
        }
        server.stop(0);
        executor.shutdownNow();
        server = null;
        executor = null;
    }

    @Override
    public void close() {
        stop();
    }

    /** The base URL clients use, e.g. {@code http://127.0.0.1:8081}. */
    public synchronized String url() {
        if (server == null) {
            throw new IllegalStateException("schema registry server is not running");
        }
        return "http://" + server.getAddress().getAddress().getHostAddress() + ":" + server.getAddress().getPort();
    }

    public InMemorySchemaRegistry registry() {
        return registry;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            RegistryResponse response = answer(exchange);
            byte[] body = response.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", RegistryProtocol.MEDIA_TYPE);
            exchange.sendResponseHeaders(response.status(), body.length == 0 ? -1 : body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    private RegistryResponse answer(HttpExchange exchange) {
        try {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            return routes.handle(exchange.getRequestMethod(), exchange.getRequestURI(), body);
        } catch (SchemaRegistryException e) {
            return RegistryResponse.error(e);
        } catch (IOException | RuntimeException e) {
            LOG.warn("schema registry failed on {} {}", exchange.getRequestMethod(), exchange.getRequestURI(), e);
            return RegistryResponse.error(500, SchemaRegistryException.BACKEND_ERROR, "Error in the backend datastore: " + e);
        }
    }
}
