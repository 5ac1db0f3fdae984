package io.hcwatch.e2e;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.kafka.EmbeddedKafkaBroker;
import io.hcwatch.serde.SpecificAvroDeserializer;
import io.hcwatch.topology.Source;
import io.hcwatch.topology.Topics;
import com.sun.net.httpserver.HttpServer;
import io.hcwatch.testsupport.ReservedPort;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** What the end-to-end tests share: the stream app's topics on the in-process broker, its settings, the alerts it writes. */
final class E2eStack {

    private E2eStack() {
    }

    /** Every input topic (lb-config compacted), the alerts and the dead letters, one partition each. */
    static void createTopics(EmbeddedKafkaBroker kafka, Topics topics) {
        List<String> inputs = new ArrayList<>();
        for (Source s : Source.values()) {
            if (s != Source.CONFIG) {
                inputs.add(topics.input(s));
            }
        }
        kafka.createTopics(1, inputs);
        kafka.createTopics(1, List.of(topics.input(Source.CONFIG)), Map.of("cleanup.policy", "compact"));
        kafka.createTopics(1, topics.alerts(), topics.incidents(), topics.deadLetters());
    }

    static Properties appProperties(EmbeddedKafkaBroker kafka, String registry, String applicationId, Path stateDir) {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", kafka.bootstrapServers());
        p.setProperty("schema.registry.url", registry);
        p.setProperty("application.id", applicationId);
        p.setProperty("metrics.host", "127.0.0.1");
        p.setProperty("metrics.port", "0");
        p.setProperty("state.dir", stateDir.toString());
        return p;
    }

    /** Hands every alert on the alerts topic to {@code received} until {@code running} says stop or the thread is interrupted. */
    static void readAlerts(EmbeddedKafkaBroker kafka, String registry, Topics topics, String groupId, BooleanSupplier running,
                           Consumer<Alert> received) {
        SpecificAvroDeserializer<Alert> values = new SpecificAvroDeserializer<>(Alert.class);
        values.configure(Map.of("schema.registry.url", registry), false);
        try (KafkaConsumer<String, Alert> c = new KafkaConsumer<>(Map.of("bootstrap.servers", kafka.bootstrapServers(),
                "group.id", groupId, "auto.offset.reset", "earliest"), new StringDeserializer(), values)) {
            c.subscribe(List.of(topics.alerts()));
            while (running.getAsBoolean() && !Thread.currentThread().isInterrupted()) {
                c.poll(Duration.ofMillis(100)).forEach(r -> received.accept(r.value()));
            }
        } catch (org.apache.kafka.common.errors.InterruptException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A backend on loopback answering every path with 200 "ok"; {@code /health} first waits
     * {@code healthDelayMs} (read on each request, so a test can slow the checks down while it runs).
     */
    static HttpServer backend(int port, IntSupplier healthDelayMs) throws IOException {
        HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 100);
        s.createContext("/", exchange -> {
            int delay = exchange.getRequestURI().getPath().equals("/health") ? healthDelayMs.getAsInt() : 0;
            if (delay > 0) {
                try {
                    Thread.sleep(delay);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            byte[] body = "ok\n".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        s.setExecutor(Executors.newFixedThreadPool(8));
        s.start();
        return s;
    }

    /** Stops a program and the processes it started (HAProxy's workers), forcibly after 10 s. */
    static void stop(Process p) throws InterruptedException {
        if (p != null && p.isAlive()) {
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }

    /** Ends the test's own threads (alert readers, traffic) and waits for them: before the programs they talk to stop. */
    static void stop(ExecutorService threads, AtomicBoolean running) throws InterruptedException {
        running.set(false);
        threads.shutdownNow();
        threads.awaitTermination(20, TimeUnit.SECONDS);
    }
}
