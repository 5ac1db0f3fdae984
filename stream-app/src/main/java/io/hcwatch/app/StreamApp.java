package io.hcwatch.app;

import io.hcwatch.cli.UsageException;
import io.hcwatch.cluster.ClusterLogin;
import io.hcwatch.cluster.RequiredTopics;
import io.hcwatch.cluster.TopicRecordLimit;
import io.hcwatch.deadletter.DeadLetterBounds;
import io.hcwatch.observability.EndpointServer;
import io.hcwatch.observability.ProcessMetrics;
import io.hcwatch.serde.RegistryOutage;
import io.hcwatch.serde.RegistryWait;
import io.hcwatch.serde.SerdeConfig;
import io.hcwatch.parse.LogDates;
import io.hcwatch.topology.Decoder;
import io.hcwatch.topology.Decoders;
import io.hcwatch.topology.IngestSettings;
import io.hcwatch.topology.Source;
import io.hcwatch.topology.TopologyConfig;
import io.hcwatch.topology.TopologyFactory;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The always-on processor: Kafka Streams running hcwatch's topology, plus its /metrics,
 * /health and /ready endpoint. Closing leaves the consumer group, so a restart does not wait
 * out the session timeout.
 */
public final class StreamApp implements AutoCloseable {

    public static final String STREAM_STATE = "hcwatch.stream.state";
    public static final String THREADS_REPLACED = "hcwatch.stream.threads.replaced";
    public static final String REGISTRY_UNAVAILABLE = "hcwatch.stream.registry.unavailable";
    /** The longest single wait for the registry: far below max.poll.interval.ms (5 min by default). */
    static final Duration REGISTRY_MAX_WAIT = Duration.ofSeconds(15);
    /** Kafka Streams' commit interval at least once (the default guarantee); {@code streams.commit.interval.ms} overrides it. */
    public static final long AT_LEAST_ONCE_COMMIT_MS = 10_000;
    /** ... and exactly once, where output waits for the commit. */
    private static final long EXACTLY_ONCE_COMMIT_MS = 100;
    private static final Logger LOG = LoggerFactory.getLogger(StreamApp.class);
    /** The longest read of lb-config's history at start (a compacted topic of a few thousand records at most). */
    static final Duration LB_CONFIG_CATCH_UP = Duration.ofSeconds(10);

    private final StreamAppConfig config;
    private final PrometheusMeterRegistry registry;
    private final Function<TopologyConfig, Topology> topologyBuilder;
    /** Kafka Streams state transitions so far: lets a reader tell that the state held still across a check. */
    private final java.util.concurrent.atomic.AtomicLong stateChanges = new java.util.concurrent.atomic.AtomicLong();
    private KafkaStreams streams;
    /** lb-config from its start, for the log formats the collector publishes (null: not readable at start). */
    private LbConfigFollower lbConfigs;
    private final ConsumerLag inputLag = new ConsumerLag();
    private java.util.concurrent.ScheduledExecutorService lagReader;
    private ProcessMetrics processMetrics;
    private EndpointServer endpoints;
    private final RegistryOutage registryOutage;
    /**
     * Ingest decoders and the alert and dead-letter serializers wait out a registry outage on the
     * stream thread: dead-lettering the input as bad_avro would lose it, and throwing would replace
     * the thread again and again. Only a schema not fetched before waits; the rest is cached.
     */
    private final RegistryWait registryWait;
    /** The largest dead letter the dead-letter topic and the producer take: read at start, Kafka's default until then. */
    private int deadLetterMaxBytes = TopologyConfig.KAFKA_DEFAULT_MAX_RECORD_BYTES;

    public StreamApp(StreamAppConfig config) {
        this(config, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    }

    public StreamApp(StreamAppConfig config, PrometheusMeterRegistry registry) {
        this(config, registry, TopologyFactory::build);
    }

    /** @param topology builds the topology from its config (tests build it over injected processors) */
    public StreamApp(StreamAppConfig config, PrometheusMeterRegistry registry, Function<TopologyConfig, Topology> topology) {
        this.config = config;
        this.registry = registry;
        this.topologyBuilder = topology;
        this.registryOutage = new RegistryOutage(Clock.systemUTC(), registry, REGISTRY_UNAVAILABLE,
                "records needing a schema not fetched before wait, none is dead-lettered");
        this.registryWait = new RegistryWait(Duration.ofMillis(500), REGISTRY_MAX_WAIT, registryOutage);
    }

    /** Client settings tuned for throughput at low latency on a small machine (benchmarked, see README). */
    public static Properties streamsProperties(StreamAppConfig config) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, config.applicationId());
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        // a stable client.id keeps the client_id tag of Kafka metrics the same across restarts (default: a new UUID each time)
        p.put(StreamsConfig.CLIENT_ID_CONFIG, config.applicationId());
        // at-least-once: downstream reads records as soon as they are sent, so commits only bound the
        // work redone after a crash. A commit writes every key that changed since the last one, whole
        // parts of it, so a key changed every second costs a write a second at 1 s: a fleet whose
        // targets are checked at their own phases (ALB health-check logs) touches every target group
        // every second, and there 1 s wrote half the input's bytes to the changelogs and spent 62% of
        // the thread encoding; 10 s, at least a check interval, writes a key's checks of the interval
        // at once (bench fleet --checks spread: 0.086 of the input). Exactly-once makes output visible
        // only at commit, so there the interval is the alert latency and stays short
        boolean exactlyOnce = String.valueOf(config.streamsOverrides().get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG))
                .startsWith("exactly_once");
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, exactlyOnce ? EXACTLY_ONCE_COMMIT_MS : AT_LEAST_ONCE_COMMIT_MS);
        // a thread per core: monitors wait for every input partition's progress report (MonitorClock),
        // so tasks on different threads may drift apart without changing what is detected
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, Math.min(Runtime.getRuntime().availableProcessors(), config.maxThreads()));
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        // the ingest task reads every input topic, and some (configs, pushed check results) are often
        // empty: with task idling on, Kafka Streams 4.3 formats a log message for each empty partition
        // before every record (a third of the thread's time in the live benchmark). Order across
        // topics is not needed: detectors take each upstream's own clock and a grace period
        p.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
        p.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, true);
        // snappy, not lz4: most batches to the internal topics hold one small record (a summary, a check
        // batch, a progress report, within the 5 ms linger), and Kafka's lz4 stream allocates two 64 KiB
        // blocks and hashes its header through JNI for each batch: 5% of a stream thread in bench live.
        // snappy recycles its buffers (ProducerBatchCompressionBenchmark, README)
        p.put(StreamsConfig.producerPrefix(ProducerConfig.COMPRESSION_TYPE_CONFIG), "snappy");
        p.put(StreamsConfig.producerPrefix(ProducerConfig.BATCH_SIZE_CONFIG), 256 * 1024);
        p.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), 5);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.MAX_POLL_RECORDS_CONFIG), 5000);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG), 50);
        // the ingest's quiet flush is a wall-clock punctuation, and a thread blocked in poll runs none:
        // an idle thread looks up as often as the ingest ticks (default poll.ms: 100)
        p.put(StreamsConfig.POLL_MS_CONFIG, IngestSettings.tickInterval(config.settings().duration("combine.flush-interval"),
                config.settings().duration("combine.quiet-flush")).toMillis());
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, org.apache.kafka.common.serialization.Serdes.ByteArraySerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, org.apache.kafka.common.serialization.Serdes.ByteArraySerde.class);
        if (config.stateDir() != null) {
            p.put(StreamsConfig.STATE_DIR_CONFIG, config.stateDir());
        }
        p.putAll(config.streamsOverrides());
        return p;
    }

    public Topology topology() {
        return topology(decoders());
    }

    private Topology topology(Map<Source, Decoder> decoders) {
        return topologyBuilder.apply(new TopologyConfig(config.topics(), config.settings(), decoders, serdeConfig(), registry,
                true, inputLag, inputPartitions(), deadLetterMaxBytes));
    }

    private Map<String, Object> serdeConfig() {
        Map<String, Object> serde = new HashMap<>(config.serdeConfig());
        serde.putIfAbsent("schema.registry.url", config.serdeConfig().get("schema.registry.url"));
        serde.put(SerdeConfig.REGISTRY_WAIT, registryWait);
        return serde;
    }

    private Map<Source, Decoder> decoders() {
        return Decoders.standard(config.topics(), serdeConfig(), LogDates.live(Clock.systemUTC()), config.logFormats());
    }

    /** Every topic the app reads or writes, but its own internal ones: Kafka Streams would stall or fail on a missing one. */
    List<String> requiredTopics() {
        List<String> topics = new java.util.ArrayList<>();
        for (Source s : Source.values()) {
            topics.add(config.topics().input(s));
        }
        topics.add(config.topics().alerts());
        topics.add(config.topics().incidents());
        topics.add(config.topics().deadLetters());
        return topics;
    }

    /**
     * The smaller of the dead-letter topic's {@code max.message.bytes} and the producer's
     * {@code max.request.size}; a limit too small for any dead letter stops the start.
     */
    private int deadLetterLimit(Map<String, Object> adminConfig) {
        String topic = config.topics().deadLetters();
        int topicLimit = TopicRecordLimit.of(adminConfig, topic, config.applicationId())
                .orElse(TopologyConfig.KAFKA_DEFAULT_MAX_RECORD_BYTES);
        Object request = new StreamsConfig(streamsProperties(config)).getProducerConfigs(config.applicationId())
                .get(ProducerConfig.MAX_REQUEST_SIZE_CONFIG);
        int requestLimit = request == null ? TopologyConfig.KAFKA_DEFAULT_MAX_RECORD_BYTES : Integer.parseInt(request.toString());
        int limit = Math.min(topicLimit, requestLimit);
        if (limit < DeadLetterBounds.MIN_RECORD_BYTES) {
            throw new UsageException("dead letters need records of up to " + DeadLetterBounds.MIN_RECORD_BYTES
                    + " bytes, but " + (topicLimit <= requestLimit ? "topic " + topic + " takes " + topicLimit
                    + " (max.message.bytes)" : "the producer sends " + requestLimit + " (streams.producer.max.request.size)")
                    + ": raise it");
        }
        if (limit < TopologyConfig.KAFKA_DEFAULT_MAX_RECORD_BYTES) {
            LOG.info("dead letters are cut to {} bytes, what {} takes", limit, topicLimit <= requestLimit ? "topic " + topic
                    : "the producer's max.request.size");
        }
        return limit;
    }

    /**
     * A warning when the monitors would give up on a crashed instance's partitions before Kafka has
     * even noticed the crash (its consumers' session timeout), let alone moved them: every such crash
     * would leave steps judged without those partitions.
     */
    static Optional<String> silentTimeoutBelowSession(StreamAppConfig config) {
        Duration silent = config.settings().duration("window.silent-timeout");
        Object session = new StreamsConfig(streamsProperties(config))
                .getMainConsumerConfigs(config.applicationId(), config.applicationId(), 0)
                .get(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG);
        if (session == null) {
            session = ConsumerConfig.configDef().defaultValues().get(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG);
        }
        long sessionMillis = Long.parseLong(session.toString());
        if (silent.toMillis() > sessionMillis) {
            return Optional.empty();
        }
        return Optional.of("detect.window.silent-timeout (" + silent.toSeconds() + " s) is not above the consumers' session.timeout.ms ("
                + sessionMillis / 1000 + " s): when an instance crashes, the monitors stop waiting for its partitions before Kafka"
                + " moves them, and judge steps without them; raise it above the session timeout plus a restore");
    }

    /**
     * How many partitions each input topic has, so the monitors wait for every one from the start
     * (a task that starts late must not find its monitors run ahead). A topic that cannot be
     * described now is left out: its partitions are waited for once they report.
     */
    private Map<Source, Integer> inputPartitions() {
        Map<Source, Integer> out = new java.util.EnumMap<>(Source.class);
        Map<String, Object> admin = new StreamsConfig(streamsProperties(config)).getAdminConfigs(config.applicationId() + "-partitions");
        Map<Source, String> topics = config.topics().inputs();
        try (Admin client = Admin.create(admin)) {
            // one request for every topic, under one deadline: with the cluster unreachable, a request per
            // topic made the start wait out the timeout once per input
            Map<String, KafkaFuture<TopicDescription>> described = client.describeTopics(new TreeSet<>(topics.values())).topicNameValues();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            topics.forEach((source, topic) -> {
                try {
                    long left = Math.max(0, deadline - System.nanoTime());
                    out.put(source, described.get(topic).get(left, TimeUnit.NANOSECONDS).partitions().size());
                } catch (Exception e) {
                    LOG.warn("could not describe input topic {} ({}); its partitions are waited for once they report", topic,
                            e.getMessage());
                }
            });
        }
        return out;
    }

    /**
     * @throws ClusterLogin.ClusterLoginException when the cluster refuses the configured TLS or SASL
     *                                            login (checked before anything starts)
     * @throws UsageException                     naming the topics that do not exist, or a dead-letter
     *                                            topic that takes too little for a dead letter
     */
    public synchronized void start() {
        Map<String, Object> admin = new StreamsConfig(streamsProperties(config)).getAdminConfigs(config.applicationId());
        ClusterLogin.verify(admin, config.applicationId());
        // a missing source topic stops Kafka Streams in its own time, a missing sink topic blocks each send: say so at once
        RequiredTopics.verify(admin, requiredTopics(), config.applicationId());
        deadLetterMaxBytes = deadLetterLimit(admin);
        silentTimeoutBelowSession(config).ifPresent(LOG::warn);
        Map<Source, Decoder> decoders = decoders();
        streams = new KafkaStreams(topology(decoders), streamsProperties(config));
        Counter replaced = Counter.builder(THREADS_REPLACED)
                .description("Stream threads that died of an exception and were replaced (processors catch their own: should stay 0)")
                .register(registry);
        streams.setStateListener((now, before) -> stateChanges.incrementAndGet());
        streams.setUncaughtExceptionHandler(e -> {
            replaced.increment();
            LOG.error("stream thread failed; replacing it", e);
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
        });
        processMetrics = ProcessMetrics.bind(registry, config.kafkaMetricsRefresh(), this::isReady);
        // every client of the topology: the main consumer's records-lag(-max) is the input lag the alert rules read
        processMetrics.add(new KafkaStreamsMetrics(streams, List.of(), processMetrics.scheduler(), processMetrics.kafkaRefresh()));
        for (KafkaStreams.State s : KafkaStreams.State.values()) {
            Gauge.builder(STREAM_STATE, this, app -> app.state() == s ? 1 : 0)
                    .description("1 for the Kafka Streams client's current state, 0 for the others")
                    .tag("state", s.name().toLowerCase(Locale.ROOT))
                    .register(registry);
        }
        if (config.metricsPort() >= 0) {
            endpoints = EndpointServer.start(config.metricsHost(), config.metricsPort(), registry, this::isReady,
                    registryOutage::describe);
        }
        lagReader = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "hcwatch-input-lag");
            t.setDaemon(true);
            return t;
        });
        KafkaStreams running = streams;
        lagReader.scheduleWithFixedDelay(() -> inputLag.refresh(running), 200, 200, java.util.concurrent.TimeUnit.MILLISECONDS);
        // the log formats the collector published before a restart, known before the first line is read
        lbConfigs = LbConfigFollower.start(new StreamsConfig(streamsProperties(config))
                .getGlobalConsumerConfigs(config.applicationId() + "-lb-config"), config.topics().input(Source.CONFIG),
                decoders.get(Source.CONFIG), LB_CONFIG_CATCH_UP);
        streams.start();
    }

    /**
     * True only while Kafka Streams is RUNNING (processing, not rebalancing or restoring) and no
     * stream thread waits for the Schema Registry.
     */
    public boolean isReady() {
        return streams != null && streams.state() == KafkaStreams.State.RUNNING && !registryOutage.isOngoing();
    }

    /** How many state transitions Kafka Streams has made since start. */
    public long stateChanges() {
        return stateChanges.get();
    }

    public KafkaStreams.State state() {
        return streams == null ? KafkaStreams.State.CREATED : streams.state();
    }

    public int metricsPort() {
        return endpoints == null ? -1 : endpoints.port();
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    @Override
    public synchronized void close() {
        registryWait.stop();
        if (lagReader != null) {
            lagReader.shutdownNow();
            lagReader = null;
        }
        if (streams != null) {
            streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                    .withTimeout(Duration.ofSeconds(30)));
            streams = null;
        }
        if (lbConfigs != null) {
            lbConfigs.close();
            lbConfigs = null;
        }
        if (processMetrics != null) {
            processMetrics.close();
            processMetrics = null;
        }
        if (endpoints != null) {
            endpoints.close();
            endpoints = null;
        }
    }
}
