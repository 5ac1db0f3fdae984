package io.hcwatch.topology;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.serde.SpecificAvroSerde;
import java.time.Duration;
import java.time.Instant;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/** hcwatch's whole topology in a {@link TopologyTestDriver}, with its raw inputs and dead letters. */
final class TopologyDriver implements AutoCloseable {

    private final TopologyConfig config;
    private final TopologyTestDriver driver;

    TopologyDriver(TopologyConfig config) {
        this(config, Instant.now());
    }

    /** @param wallClock the driver's wall clock at the start (it moves only by {@link #advanceWallClockTime}) */
    TopologyDriver(TopologyConfig config, Instant wallClock) {
        this.config = config;
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "hcwatch-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        this.driver = new TopologyTestDriver(TopologyFactory.build(config), props, wallClock);
    }

    void advanceWallClockTime(Duration by) {
        driver.advanceWallClockTime(by);
    }

    /** A source's input topic, taking raw bytes as the collectors and rsyslog write them. */
    TestInputTopic<byte[], byte[]> input(Source source) {
        return driver.createInputTopic(config.topics().input(source), Serdes.ByteArray().serializer(), Serdes.ByteArray().serializer());
    }

    TestOutputTopic<String, Alert> alerts() {
        return driver.createOutputTopic(config.topics().alerts(), Serdes.String().deserializer(),
                SpecificAvroSerde.forValues(Alert.class, config.serdeConfig()).deserializer());
    }

    TestOutputTopic<String, DeadLetter> deadLetters() {
        return driver.createOutputTopic(config.topics().deadLetters(), Serdes.String().deserializer(),
                SpecificAvroSerde.forValues(DeadLetter.class, config.serdeConfig()).deserializer());
    }

    @Override
    public void close() {
        driver.close();
    }
}
