package io.hcwatch.collect;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.ConfigKind;
import io.hcwatch.avro.v1.LbConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PublisherTest {

    @Test
    void withKafkaUnreachableOnlyTheFirstSendWaitsAndEveryRecordReportsItsFailure() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        PublishConfig config = new PublishConfig("127.0.0.1:" + closed, PublishConfig.Format.JSON, Map.of(),
                Map.of("max.block.ms", "300"), "127.0.0.1", PublishConfig.METRICS_OFF);
        AtomicInteger failures = new AtomicInteger();
        LbConfig record = LbConfig.newBuilder().setKind(ConfigKind.haproxy_process).setId("lb1").setTs(Instant.now())
                .setHost("lb1").setMaxconn(100).build();

        long start = System.nanoTime();
        try (Publisher publisher = Publisher.create(config, "publisher-test", new CollectorMetrics(registry))) {
            for (int i = 0; i < 20; i++) {
                publisher.publish("lb-config", "lb1", record, 0L, start, failures::incrementAndGet);
            }
        }
        long elapsedMs = (System.nanoTime() - start) / 1_000_000;

        assertThat(failures).hasValue(20);
        assertThat(elapsedMs).as("one max.block.ms wait, not twenty").isLessThan(20 * 300 / 2);
        assertThat(registry.get("hcwatch.collector.publish.errors").tags("topic", "lb-config", "reason", "delivery")
                .counter().count()).isEqualTo(1.0);
        assertThat(registry.get("hcwatch.collector.publish.errors").tags("topic", "lb-config", "reason", "unavailable")
                .counter().count()).isEqualTo(19.0);
    }
}
