package io.hcwatch.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hcwatch.kafka.EmbeddedKafkaBroker;
import io.hcwatch.observability.Scrapes;
import io.hcwatch.topology.Source;
import io.hcwatch.topology.Topics;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** /health answers at once whatever Kafka does; /ready says 503 until Kafka Streams is RUNNING. */
class ReadinessIT {

    @TempDir
    Path tmp;

    private Properties config(String bootstrap, String applicationId) {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", bootstrap);
        p.setProperty("schema.registry.url", "mock://readiness-it");
        p.setProperty("application.id", applicationId);
        p.setProperty("metrics.host", "127.0.0.1");
        p.setProperty("metrics.port", "0");
        p.setProperty("state.dir", tmp.resolve(applicationId).toString());
        return p;
    }

    @Test
    void healthIsFastAnd200AndReadyIs503WhileKafkaIsUnreachable() throws Exception {
        // a port nothing listens on: every connection attempt is refused
        try (StreamApp app = new StreamApp(StreamAppConfig.from(config("127.0.0.1:" + closedPort(), "hcwatch-no-kafka")))) {
            app.start();
            String base = "http://127.0.0.1:" + app.metricsPort();
            Scrapes.get(base + "/health"); // the test's HTTP client warms up here, not in the measurement
            AtomicLong slowest = new AtomicLong();

            await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> {
                        long t0 = System.nanoTime();
                        int health = Scrapes.get(base + "/health").statusCode();
                        slowest.accumulateAndGet((System.nanoTime() - t0) / 1_000_000, Math::max);
                        return health == 200 && Scrapes.get(base + "/ready").statusCode() == 503
                                && app.state() != KafkaStreams.State.RUNNING;
                    });

            System.out.println("slowest /health over 5 s with Kafka unreachable: " + slowest.get() + " ms");
            // generous for a loaded 2-core CI machine; typically a few milliseconds
            assertThat(slowest.get()).isLessThan(500);
            assertThat(Scrapes.get(base + "/health").body()).isEqualTo("ok\n");
            assertThat(Scrapes.value(Scrapes.metrics(app.metricsPort()), "hcwatch_ready")).isZero();
        }
    }

    @Test
    void readyIs503UntilKafkaStreamsIsRunningThen200() throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start()) {
            Topics topics = Topics.defaults();
            List<String> names = new ArrayList<>();
            for (Source s : Source.values()) {
                names.add(topics.input(s));
            }
            names.addAll(List.of(topics.alerts(), topics.deadLetters()));
            broker.createTopics(1, names);
            try (StreamApp app = new StreamApp(StreamAppConfig.from(config(broker.bootstrapServers(), "hcwatch-readiness-it")))) {
                app.start();
                String base = "http://127.0.0.1:" + app.metricsPort();
                // start() returns with the client REBALANCING: it has not joined its group yet
                assertThat(Scrapes.get(base + "/ready").statusCode()).isEqualTo(503);

                List<String> readyWhileNotRunning = new ArrayList<>();
                await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(50)).until(() -> {
                    KafkaStreams.State before = app.state();
                    int ready = Scrapes.get(base + "/ready").statusCode();
                    KafkaStreams.State after = app.state();
                    if (ready == 200 && before != KafkaStreams.State.RUNNING && after != KafkaStreams.State.RUNNING) {
                        readyWhileNotRunning.add(before + "/" + after);
                    }
                    return ready == 200;
                });

                assertThat(readyWhileNotRunning).as("/ready said 200 while Kafka Streams was not RUNNING").isEmpty();
                assertThat(app.state()).isEqualTo(KafkaStreams.State.RUNNING);
                assertThat(Scrapes.get(base + "/health").statusCode()).isEqualTo(200);
                String metrics = Scrapes.metrics(app.metricsPort());
                assertThat(Scrapes.value(metrics, "hcwatch_ready")).isEqualTo(1.0);
                assertThat(Scrapes.value(metrics, "hcwatch_stream_state", "state=\"running\"")).isEqualTo(1.0);
            }
        }
    }

    /** A loopback port that was free a moment ago and is not listened on. */
    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
