package io.hcwatch.sink.notify.pagerduty;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A loopback HTTP server standing in for PagerDuty's Events API v2. Every request is checked
 * against {@code pagerduty-events-v2.schema.json} and the 512 KB size limit; a request that fails
 * gets the 400 PagerDuty would send and is recorded as a violation, so a test can assert there were
 * none. Accepted events are recorded in arrival order.
 */
public final class PagerDutyStandIn implements AutoCloseable {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Schema SCHEMA = loadSchema();

    private final HttpServer server;
    private final List<JsonNode> accepted = new CopyOnWriteArrayList<>();
    private final List<String> violations = new CopyOnWriteArrayList<>();
    private final List<Integer> statusesSent = new CopyOnWriteArrayList<>();
    private final Deque<Response> scripted = new ArrayDeque<>();
    private final List<Rule> rules = new CopyOnWriteArrayList<>();
    private final AtomicInteger dropped = new AtomicInteger();

    private record Response(int status, String body) {
    }

    /** Not an answer: the connection is closed without one, as a crashing proxy or a reset would. */
    private static final Response DROP = new Response(-1, "");

    private record Rule(Predicate<JsonNode> when, Response response) {
    }

    private PagerDutyStandIn(HttpServer server) {
        this.server = server;
        server.createContext("/v2/enqueue", this::handle);
        server.start();
    }

    public static PagerDutyStandIn start() {
        return start(0);
    }

    /** On a given loopback port, e.g. one the sink was already told to use while nothing listened there. */
    public static PagerDutyStandIn start(int port) {
        try {
            return new PagerDutyStandIn(HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The base URL to configure as the PagerDuty endpoint. */
    public String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The next valid requests get these statuses (in order) instead of being accepted. */
    public synchronized PagerDutyStandIn thenRespond(int status, int times) {
        for (int i = 0; i < times; i++) {
            scripted.add(new Response(status, "{\"status\":\"scripted\",\"message\":\"HTTP " + status + "\"}"));
        }
        return this;
    }

    /** Valid events matching {@code when} always get {@code status} and {@code body}. */
    public PagerDutyStandIn respondWhen(Predicate<JsonNode> when, int status, String body) {
        rules.add(new Rule(when, new Response(status, body)));
        return this;
    }

    /** Valid events matching {@code when} get no answer: the connection is closed (a network error to the client). */
    public PagerDutyStandIn dropWhen(Predicate<JsonNode> when) {
        rules.add(new Rule(when, DROP));
        return this;
    }

    /** Requests whose connection was closed without an answer. */
    public int dropped() {
        return dropped.get();
    }

    public List<JsonNode> accepted() {
        return List.copyOf(accepted);
    }

    public List<String> violations() {
        return List.copyOf(violations);
    }

    public List<Integer> statusesSent() {
        return List.copyOf(statusesSent);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!"POST".equals(exchange.getRequestMethod())) {
                violations.add("method " + exchange.getRequestMethod());
                respond(exchange, new Response(405, "{}"));
                return;
            }
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            Response response = decide(exchange, body);
            if (response == DROP) {
                // closing the exchange before any response headers closes the connection
                dropped.incrementAndGet();
                return;
            }
            respond(exchange, response);
        }
    }

    private Response decide(HttpExchange exchange, byte[] body) {
        String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
        if (contentType == null || !contentType.startsWith("application/json")) {
            return violation("Content-Type is " + contentType);
        }
        if (body.length > PagerDutyEventEncoder.MAX_EVENT_BYTES) {
            return violation("event is " + body.length + " bytes, over 512 KB");
        }
        JsonNode event;
        try {
            event = MAPPER.readTree(body);
        } catch (IOException e) {
            return violation("not JSON: " + e.getMessage());
        }
        List<Error> errors = SCHEMA.validate(event);
        if (!errors.isEmpty()) {
            List<String> messages = new ArrayList<>();
            errors.forEach(error -> messages.add(error.toString()));
            return violation(String.join("; ", messages));
        }
        synchronized (this) {
            if (!scripted.isEmpty()) {
                return scripted.poll();
            }
        }
        for (Rule rule : rules) {
            if (rule.when().test(event)) {
                return rule.response();
            }
        }
        accepted.add(event);
        return new Response(202, "{\"status\":\"success\",\"message\":\"Event processed\",\"dedup_key\":"
                + MAPPER.valueToTree(event.path("dedup_key").asText()) + "}");
    }

    private Response violation(String message) {
        violations.add(message);
        return new Response(400, "{\"status\":\"invalid event\",\"message\":\"Event object is invalid\",\"errors\":["
                + MAPPER.valueToTree(message) + "]}");
    }

    private void respond(HttpExchange exchange, Response response) throws IOException {
        statusesSent.add(response.status());
        byte[] bytes = response.body().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(response.status(), bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static Schema loadSchema() {
        SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                builder -> builder.schemaRegistryConfig(SchemaRegistryConfig.builder().formatAssertionsEnabled(true).build()));
        try (InputStream in = PagerDutyStandIn.class.getResourceAsStream("/pagerduty-events-v2.schema.json")) {
            if (in == null) {
                throw new IllegalStateException("pagerduty-events-v2.schema.json is not on the test classpath");
            }
            return registry.getSchema(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Validates an event without HTTP, for tests of the schema itself. */
    static List<Error> validate(JsonNode event) {
        return SCHEMA.validate(event);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
