package io.hcwatch.collect.alblogs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import io.hcwatch.collect.aws.StandInServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * SQS on loopback for the real SDK (test code), in the AWS JSON 1.0 protocol the SDK has used for
 * SQS since 2023: {@code POST /} with {@code X-Amz-Target: AmazonSQS.<Action>} and a JSON body,
 * JSON answers ({@code MD5OfBody} as the SDK checks it), errors as {@code __type} plus the
 * {@code x-amzn-query-error} header. Holds one queue with visibility timeouts, answers
 * ReceiveMessage (long polling, bounded by WaitTimeSeconds), DeleteMessage and
 * ChangeMessageVisibility, and records what it was asked.
 */
final class SqsStandIn extends StandInServer {

    private static final ObjectMapper JSON = new ObjectMapper();

    static final class Msg {
        final String id = UUID.randomUUID().toString();
        final String body;
        volatile long visibleAtNanos = System.nanoTime();
        volatile String receipt;
        volatile int receives;
        volatile boolean deleted;

        Msg(String body) {
            this.body = body;
        }
    }

    final List<Msg> messages = new CopyOnWriteArrayList<>();
    final List<String> actions = new CopyOnWriteArrayList<>();
    /** Seconds a received message stays invisible, as the queue's VisibilityTimeout. */
    volatile int visibilitySeconds = 30;

    Msg send(String body) {
        Msg m = new Msg(body);
        messages.add(m);
        synchronized (this) {
            notifyAll();
        }
        return m;
    }

    long count(String action) {
        return actions.stream().filter(action::equals).count();
    }

    @Override
    protected void handle(HttpExchange exchange) throws IOException {
        String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
        JsonNode request = JSON.readTree(exchange.getRequestBody().readAllBytes());
        String action = target == null ? "?" : target.substring(target.indexOf('.') + 1);
        actions.add(action);
        switch (action) {
            case "ReceiveMessage" -> receive(exchange, request);
            case "DeleteMessage" -> {
                Msg m = byReceipt(request.path("ReceiptHandle").asText());
                if (m == null) {
                    error(exchange, "ReceiptHandleIsInvalid", "com.amazonaws.sqs#ReceiptHandleIsInvalid", "The input receipt handle is invalid.");
                    return;
                }
                m.deleted = true;
                ok(exchange, JSON.createObjectNode());
            }
            case "ChangeMessageVisibility" -> {
                Msg m = byReceipt(request.path("ReceiptHandle").asText());
                if (m == null) {
                    error(exchange, "ReceiptHandleIsInvalid", "com.amazonaws.sqs#ReceiptHandleIsInvalid", "The input receipt handle is invalid.");
                    return;
                }
                m.visibleAtNanos = System.nanoTime() + request.path("VisibilityTimeout").asLong() * 1_000_000_000L;
                ok(exchange, JSON.createObjectNode());
            }
            default -> error(exchange, "AWS.SimpleQueueService.UnsupportedOperation", "com.amazonaws.sqs#UnsupportedOperation",
                    "unsupported " + action);
        }
    }

    private Msg byReceipt(String receipt) {
        return messages.stream().filter(m -> receipt.equals(m.receipt) && !m.deleted).findFirst().orElse(null);
    }

    private void receive(HttpExchange exchange, JsonNode request) throws IOException {
        int max = request.path("MaxNumberOfMessages").asInt(1);
        long deadline = System.nanoTime() + request.path("WaitTimeSeconds").asLong(0) * 1_000_000_000L;
        List<Msg> out = new ArrayList<>();
        synchronized (this) {
            while (true) {
                long now = System.nanoTime();
                for (Msg m : messages) {
                    if (out.size() < max && !m.deleted && now - m.visibleAtNanos >= 0) {
                        m.visibleAtNanos = now + visibilitySeconds * 1_000_000_000L;
                        m.receipt = "AQEB" + UUID.randomUUID();
                        m.receives++;
                        out.add(m);
                    }
                }
                long left = deadline - System.nanoTime();
                if (!out.isEmpty() || left <= 0) {
                    break;
                }
                try {
                    // bounded by WaitTimeSeconds; wakes early on a new message, or every 100 ms for visibility
                    wait(Math.max(1, Math.min(left / 1_000_000, 100)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        ObjectNode response = JSON.createObjectNode();
        if (!out.isEmpty()) {
            ArrayNode list = response.putArray("Messages");
            for (Msg m : out) {
                list.addObject().put("MessageId", m.id).put("ReceiptHandle", m.receipt).put("MD5OfBody", md5(m.body))
                        .put("Body", m.body);
            }
        }
        ok(exchange, response);
    }

    private static String md5(String body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(body.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void ok(HttpExchange exchange, JsonNode body) throws IOException {
        send(exchange, 200, "application/x-amz-json-1.0", JSON.writeValueAsBytes(body));
    }

    private static void error(HttpExchange exchange, String queryCode, String type, String message) throws IOException {
        exchange.getResponseHeaders().set("x-amzn-query-error", queryCode + ";Sender");
        send(exchange, 400, "application/x-amz-json-1.0",
                JSON.writeValueAsBytes(JSON.createObjectNode().put("__type", type).put("message", message)));
    }
}
