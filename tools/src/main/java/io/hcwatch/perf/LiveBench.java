package io.hcwatch.perf;

import io.hcwatch.app.StreamApp;
import io.hcwatch.app.StreamAppConfig;
import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.BackendEvent;
import io.hcwatch.avro.v1.BackendEventKind;
import io.hcwatch.kafka.EmbeddedKafkaBroker;
import io.hcwatch.parse.HaproxyLineFormat;
import io.hcwatch.registry.InMemorySchemaRegistry;
import io.hcwatch.registry.SchemaRegistryServer;
import io.hcwatch.serde.SpecificAvroSerde;
import io.hcwatch.topology.Source;
import io.hcwatch.topology.Topics;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

/**
 * Live throughput through a real broker (in this JVM, on the same cores): the same records, with
 * the same client settings, through a plain Kafka Streams pass-through ({@code mapValues} to an
 * output topic) and through hcwatch with every detector; then alert latency, the wall time from
 * producing a decisive record to its alert on the alerts topic, under background load.
 */
public final class LiveBench {

    private static final Topics TOPICS = Topics.defaults();
    private static final List<Source> RAW = List.of(Source.ALB, Source.HAPROXY, Source.ALB_HEALTH);
    /** Where {@code --haproxy-stats} puts the polls: only the third app reads it, the others read the empty haproxy-stats. */
    static final String STATS_TOPIC = "haproxy-stats-bench";
    /** Frontends per HAProxy host in each poll ({@code --haproxy-stats}). */
    static final int STATS_FRONTENDS = 100;

    private LiveBench() {
    }

    /**
     * @param rounds       each round runs both apps over the whole backlog, in turn (pass-through first in
     *                     odd rounds, hcwatch first in even ones, so drift on a shared machine hits both)
     * @param withStats    also run hcwatch with the HAProxy collector's polls (one per host and second of
     *                     event time, 100 frontends each, on {@link #STATS_TOPIC}) in every round, beside
     *                     hcwatch without them, and report the ratio of the two
     * @param threads      when not empty, run both apps at each of these stream thread counts in every round
     *                     ({@link #compareThreads}) instead of once with {@code streamsConfig}'s; not with {@code withStats}
     * @param brokerConfig settings of the in-process broker over the bench's own ({@link #brokerSettings})
     */
    public static void run(long records, int partitions, int rounds, int instances, int latencySamples,
            Map<String, String> streamsConfig, boolean withStats, List<Integer> threads, Map<String, String> brokerConfig,
            PrintStream out) throws Exception {
        if (withStats && !threads.isEmpty()) {
            throw new IllegalArgumentException("the HAProxy polls are measured at one thread count");
        }
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(brokerSettings(brokerConfig));
             SchemaRegistryServer registry = new SchemaRegistryServer(new InMemorySchemaRegistry()).start()) {
            List<String> inputs = new ArrayList<>(TOPICS.inputs().values());
            broker.createTopics(partitions, inputs);
            broker.createTopics(partitions, List.of(TOPICS.alerts(), TOPICS.incidents(), TOPICS.deadLetters(), "passthrough-out", STATS_TOPIC));
            out.printf("live benchmark: %,d records into %d input partitions per topic, %d instance(s) of each app,"
                            + " broker and apps in one JVM on %d cores%n",
                    records, partitions, instances, Runtime.getRuntime().availableProcessors());
            long produceStart = System.nanoTime();
            long polls = produce(broker, records, withStats);
            out.printf("  produced in %.1fs%s%n", (System.nanoTime() - produceStart) / 1e9,
                    withStats ? String.format(" (and %,d HAProxy polls of %d frontends on %s)", polls, STATS_FRONTENDS, STATS_TOPIC) : "");

            if (!threads.isEmpty()) {
                compareThreads(broker, registry, records, rounds, instances, threads, streamsConfig, out);
                if (latencySamples > 0) {
                    latency(broker, registry, latencySamples, partitions, streamsConfig, out);
                }
                return;
            }
            // the apps share this JVM and its compiled code: the first to run would pay for compiling
            // Kafka's record path and its own code (a quarter or more of the JVM's CPU in a short run)
            List<String> kinds = withStats ? List.of(PASS_THROUGH, HCWATCH, HCWATCH_STATS) : List.of(PASS_THROUGH, HCWATCH);
            for (String kind : kinds) {
                warmUp(broker, kind + "-warm-up", records / 4,
                        starter(kind, kind + "-warm-up", instances, broker, registry, streamsConfig), out);
            }
            List<Rate> hcwatch = new ArrayList<>();
            List<Rate> passThrough = new ArrayList<>();
            List<Rate> hcwatchStats = new ArrayList<>();
            for (int round = 1; round <= rounds; round++) {
                String hcwatchId = "hcwatch-bench-" + round;
                String statsId = "hcwatch-stats-bench-" + round;
                String passThroughId = "pass-through-" + round;
                Measurement passThroughRun = () -> passThrough.add(measure(broker, passThroughId, records,
                        starter(PASS_THROUGH, passThroughId, instances, broker, registry, streamsConfig), out));
                Measurement hcwatchRun = () -> hcwatch.add(measure(broker, hcwatchId, records,
                        starter(HCWATCH, hcwatchId, instances, broker, registry, streamsConfig), out));
                Measurement statsRun = () -> hcwatchStats.add(measure(broker, statsId, records,
                        starter(HCWATCH_STATS, statsId, instances, broker, registry, streamsConfig), out));
                List<Measurement> order = new ArrayList<>(withStats ? List.of(passThroughRun, hcwatchRun, statsRun)
                        : List.of(passThroughRun, hcwatchRun));
                if (round % 2 == 0) {
                    Collections.reverse(order);
                }
                for (Measurement m : order) {
                    m.run();
                }
                Rate h = hcwatch.get(round - 1);
                Rate p = passThrough.get(round - 1);
                out.printf("round %d: hcwatch %,.0f records/s; pass-through %,.0f records/s; ratio %.2f%s%n",
                        round, h.perSecond(), p.perSecond(), h.perSecond() / p.perSecond(), withStats
                                ? String.format("; hcwatch with haproxy-stats %,.0f records/s, %.3f of hcwatch without",
                                hcwatchStats.get(round - 1).perSecond(), hcwatchStats.get(round - 1).perSecond() / h.perSecond())
                                : "");
            }
            double h = median(hcwatch.stream().map(Rate::perSecond).toList());
            double p = median(passThrough.stream().map(Rate::perSecond).toList());
            out.printf("throughput (median of %d rounds): hcwatch %,.0f records/s; pass-through %,.0f records/s; ratio %.2f%n",
                    rounds, h, p, h / p);
            out.printf("CPU per record (median; whole JVM, broker included): hcwatch %.2f us; pass-through %.2f us%n",
                    median(hcwatch.stream().map(Rate::cpuMicrosPerRecord).toList()),
                    median(passThrough.stream().map(Rate::cpuMicrosPerRecord).toList()));
            out.printf("stream threads' CPU per record (median): hcwatch %.2f us; pass-through %.2f us%n",
                    median(hcwatch.stream().map(Rate::threadMicrosPerRecord).toList()),
                    median(passThrough.stream().map(Rate::threadMicrosPerRecord).toList()));
            if (withStats) {
                double hs = median(hcwatchStats.stream().map(Rate::perSecond).toList());
                out.printf("with haproxy-stats (median of %d rounds): %,.0f records/s, %.3f of hcwatch without (per round: %s);"
                                + " CPU per record %.2f us%n", rounds, hs, hs / h,
                        IntStream.range(0, rounds).mapToObj(i -> String.format("%.3f",
                                hcwatchStats.get(i).perSecond() / hcwatch.get(i).perSecond())).toList(),
                        median(hcwatchStats.stream().map(Rate::cpuMicrosPerRecord).toList()));
            }

            if (latencySamples > 0) {
                latency(broker, registry, latencySamples, partitions, streamsConfig, out);
            }
        }
    }

    /**
     * Both apps at each stream thread count, every round (order rotated by one each round, so no app
     * and thread count always runs first or last): how much each app gains from more threads on this
     * machine, measured in the same run as the pass-through gains. Two threads on two cores are also
     * a test of the machine: when the pass-through gains nothing, neither can anything else.
     */
    private static void compareThreads(EmbeddedKafkaBroker broker, SchemaRegistryServer registry, long records, int rounds,
            int instances, List<Integer> threads, Map<String, String> streamsConfig, PrintStream out) throws Exception {
        Map<Integer, Map<String, String>> configs = new LinkedHashMap<>();
        for (int t : threads) {
            Map<String, String> c = new LinkedHashMap<>(streamsConfig);
            c.put("num.stream.threads", Integer.toString(t));
            configs.put(t, c);
        }
        Map<String, String> first = configs.get(threads.get(0));
        for (String kind : List.of(PASS_THROUGH, HCWATCH)) {
            warmUp(broker, kind + "-warm-up", records / 4, starter(kind, kind + "-warm-up", instances, broker, registry, first), out);
        }
        // per app kind and thread count, one rate per round
        Map<ThreadRun, List<Rate>> rates = new LinkedHashMap<>();
        for (int t : threads) {
            for (String kind : List.of(PASS_THROUGH, HCWATCH)) {
                rates.put(new ThreadRun(kind, t), new ArrayList<>());
            }
        }
        for (int round = 1; round <= rounds; round++) {
            List<ThreadRun> order = new ArrayList<>(rates.keySet());
            Collections.rotate(order, -(round - 1));
            for (ThreadRun run : order) {
                String id = run.name() + "-" + round;
                rates.get(run).add(measure(broker, id, records,
                        starter(run.kind(), id, instances, broker, registry, configs.get(run.threads())), out));
            }
        }
        int base = threads.get(0);
        for (int t : threads) {
            List<Rate> h = rates.get(new ThreadRun(HCWATCH, t));
            List<Rate> p = rates.get(new ThreadRun(PASS_THROUGH, t));
            double hm = median(h.stream().map(Rate::perSecond).toList());
            double pm = median(p.stream().map(Rate::perSecond).toList());
            out.printf("%d stream thread(s), median of %d rounds: hcwatch %,.0f records/s; pass-through %,.0f records/s; ratio %.2f;"
                            + " CPU per record (whole JVM) %.2f / %.2f us; stream threads' %.2f / %.2f us%n", t, rounds, hm, pm, hm / pm,
                    median(h.stream().map(Rate::cpuMicrosPerRecord).toList()), median(p.stream().map(Rate::cpuMicrosPerRecord).toList()),
                    median(h.stream().map(Rate::threadMicrosPerRecord).toList()), median(p.stream().map(Rate::threadMicrosPerRecord).toList()));
            if (t != base) {
                List<Rate> hBase = rates.get(new ThreadRun(HCWATCH, base));
                List<Rate> pBase = rates.get(new ThreadRun(PASS_THROUGH, base));
                out.printf("  %d threads against %d: hcwatch %s, pass-through %s (median of the per-round ratios; rounds %s / %s)%n", t, base,
                        gain(h, hBase), gain(p, pBase), perRound(h, hBase), perRound(p, pBase));
            }
        }
    }

    /** One app kind at one stream thread count in {@link #compareThreads}; its name prefixes each round's app id. */
    private record ThreadRun(String kind, int threads) {
        String name() {
            return kind + "-" + threads + "t";
        }
    }

    private static String gain(List<Rate> more, List<Rate> fewer) {
        return String.format("%.2fx", median(IntStream.range(0, more.size())
                .mapToObj(i -> more.get(i).perSecond() / fewer.get(i).perSecond()).toList()));
    }

    private static String perRound(List<Rate> more, List<Rate> fewer) {
        return IntStream.range(0, more.size())
                .mapToObj(i -> String.format("%.2f", more.get(i).perSecond() / fewer.get(i).perSecond())).toList().toString();
    }

    /** The bench's broker settings, then {@code overrides}. */
    static Map<String, String> brokerSettings(Map<String, String> overrides) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("log.segment.bytes", "268435456");
        // Kafka's default (the embedded broker's is 0, for tests): a group waits 3s for its members before
        // the first assignment, so two stream threads or instances starting together share the ingest tasks
        // from the start instead of the first member's tasks sticking to it
        settings.put("group.initial.rebalance.delay.ms", "3000");
        settings.putAll(overrides);
        return settings;
    }

    /**
     * The apps' Kafka Streams settings, committing every second unless {@code streamsConfig} says
     * otherwise: the bench times an app by its committed offsets, and at the app's own 10 s a run of
     * 20 s would be timed in steps of 10 s and count only what follows its first commit. A commit a
     * second costs hcwatch more than its own interval does, so its figures are on the safe side.
     */
    static Map<String, String> timed(Map<String, String> streamsConfig) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("commit.interval.ms", "1000");
        settings.putAll(streamsConfig);
        return settings;
    }

    static StreamAppConfig config(EmbeddedKafkaBroker broker, SchemaRegistryServer registry, String applicationId,
            Map<String, String> streamsConfig) throws Exception {
        return config(broker, registry, applicationId, streamsConfig, TOPICS.input(Source.HAPROXY_STATS));
    }

    private static StreamAppConfig config(EmbeddedKafkaBroker broker, SchemaRegistryServer registry, String applicationId,
            Map<String, String> streamsConfig, String statsTopic) throws Exception {
        Properties p = new Properties();
        p.setProperty("topic.haproxy-stats", statsTopic);
        timed(streamsConfig).forEach((k, v) -> p.setProperty("streams." + k, v));
        p.setProperty("bootstrap.servers", broker.bootstrapServers());
        p.setProperty("schema.registry.url", registry.url());
        p.setProperty("application.id", applicationId);
        p.setProperty("metrics.port", "-1");
        p.setProperty("state.dir", Files.createTempDirectory("hcwatch-bench-state").toString());
        return StreamAppConfig.from(p);
    }

    /** The workload; with {@code withStats} also a poll per HAProxy host and second of its event time. Returns the polls. */
    private static long produce(EmbeddedKafkaBroker broker, long records, boolean withStats) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = producer(broker)) {
            long[] polls = {0};
            long[] nextPoll = {BenchWorkload.T0};
            new BenchWorkload(3, 20_000, false).generate(records, line -> {
                while (withStats && nextPoll[0] <= line.eventTime()) {
                    for (String host : List.of("lb1", "lb2")) {
                        producer.send(new ProducerRecord<>(STATS_TOPIC, null, nextPoll[0], host.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                                poll(host, nextPoll[0], polls[0])));
                        polls[0]++;
                    }
                    nextPoll[0] += 1000;
                }
                producer.send(new ProducerRecord<>(TOPICS.input(line.source()), null, line.eventTime(), null, line.value()));
            });
            producer.flush();
            return polls[0];
        }
    }

    /** One poll as {@code collect haproxy} publishes it with format=json: fe-web (the workload's frontend) and 99 more. */
    static byte[] poll(String host, long at, long n) {
        List<io.hcwatch.avro.v1.FrontendStats> frontends = new ArrayList<>();
        for (int f = 0; f < STATS_FRONTENDS; f++) {
            int scur = f == 0 ? 300 + (int) (n % 50) : (int) ((n + f) % 40);
            frontends.add(io.hcwatch.avro.v1.FrontendStats.newBuilder().setName(f == 0 ? "fe-web" : "fe-" + f).setStatus("OPEN")
                    .setScur(scur).setSlim(f == 0 ? 3000 : 500).setSmax(scur + 10).setRate(20).setReqRate(20).setConnRate(20)
                    .setStotDelta(20L).setEreqDelta(0L).setDreqDelta(0L).setDconDelta(0L).build());
        }
        io.hcwatch.avro.v1.HaproxyStats poll = io.hcwatch.avro.v1.HaproxyStats.newBuilder().setTs(java.time.Instant.ofEpochMilli(at))
                .setHost(host).setPid(1200).setUptimeSec(n).setIntervalMs(1000L).setCurrConns(900).setMaxconn(20_000)
                .setConnRate(2000).setSessRate(2000).setFrontends(frontends).setBackends(new ArrayList<>()).build();
        return io.hcwatch.collect.AvroJson.write(poll).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    private static KafkaProducer<byte[], byte[]> producer(EmbeddedKafkaBroker broker) {
        return new KafkaProducer<>(Map.of("bootstrap.servers", broker.bootstrapServers(), "linger.ms", 20,
                "batch.size", 262144, "compression.type", "lz4", "acks", "1"), new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** Starts {@code instances} members of one consumer group; closing the result closes them all. */
    private static final String PASS_THROUGH = "pass-through";
    private static final String HCWATCH = "hcwatch";
    private static final String HCWATCH_STATS = "hcwatch-stats";

    /** Starts {@code instances} members of one app kind under the group {@code id}. */
    private static Starter starter(String kind, String id, int instances, EmbeddedKafkaBroker broker, SchemaRegistryServer registry,
            Map<String, String> streamsConfig) {
        return () -> startAll(instances, () -> switch (kind) {
            case PASS_THROUGH -> passThrough(broker, config(broker, registry, id, streamsConfig), id);
            case HCWATCH -> {
                // each instance keeps its own state directory, as separate machines would
                StreamApp app = new StreamApp(config(broker, registry, id, streamsConfig));
                app.start();
                yield app::close;
            }
            default -> {
                StreamApp app = new StreamApp(config(broker, registry, id, streamsConfig, STATS_TOPIC));
                app.start();
                yield app::close;
            }
        });
    }

    /** Runs an app until it has committed {@code records} of the backlog, uncounted: the JIT compiles what it runs. */
    private static void warmUp(EmbeddedKafkaBroker broker, String group, long records, Starter starter, PrintStream out)
            throws Exception {
        try (Admin admin = broker.admin()) {
            Map<TopicPartition, Long> ends = endOffsets(admin);
            long started = System.nanoTime();
            try (AutoCloseable app = starter.start()) {
                long committed = 0;
                long lastProgress = System.nanoTime();
                while (committed < records) {
                    TimeUnit.MILLISECONDS.sleep(250);
                    long now = committed(admin, group, ends.keySet());
                    if (now > committed) {
                        lastProgress = System.nanoTime();
                    }
                    committed = now;
                    if (System.nanoTime() - lastProgress > TimeUnit.SECONDS.toNanos(60)) {
                        throw new IllegalStateException(group + " stopped at " + committed + " of " + records + " committed");
                    }
                }
                out.printf("  %-16s %,d records in %.1fs (warm-up, not counted)%n", group, committed,
                        (System.nanoTime() - started) / 1e9);
            }
        }
    }

    private static AutoCloseable startAll(int instances, Starter starter) throws Exception {
        List<AutoCloseable> started = new ArrayList<>();
        for (int i = 0; i < instances; i++) {
            started.add(starter.start());
        }
        return () -> {
            for (AutoCloseable c : started) {
                c.close();
            }
        };
    }

    /** A Kafka Streams pass-through of the same input with hcwatch's client settings. */
    private static AutoCloseable passThrough(EmbeddedKafkaBroker broker, StreamAppConfig hcwatch, String applicationId)
            throws Exception {
        Properties props = StreamApp.streamsProperties(hcwatch);
        props.put("application.id", applicationId);
        props.put("client.id", applicationId);
        props.put("state.dir", Files.createTempDirectory("pass-through-state").toString());
        StreamsBuilder b = new StreamsBuilder();
        for (Source s : RAW) {
            b.stream(TOPICS.input(s), Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()))
                    .mapValues(v -> v)
                    .to("passthrough-out", Produced.with(Serdes.ByteArray(), Serdes.ByteArray()));
        }
        KafkaStreams streams = new KafkaStreams(b.build(), props);
        streams.start();
        return () -> streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                .withTimeout(Duration.ofSeconds(30)));
    }

    /**
     * Starts an app and times it from its first committed progress until it has committed every
     * input record; also the CPU the whole JVM and the app's stream threads spent meanwhile.
     */
    private static Rate measure(EmbeddedKafkaBroker broker, String group, long records, Starter starter, PrintStream out)
            throws Exception {
        try (Admin admin = broker.admin()) {
            Map<TopicPartition, Long> ends = endOffsets(admin);
            long launched = System.nanoTime();
            long cpuAtLaunch = processCpuNanos();
            try (AutoCloseable app = starter.start()) {
                long first = 0;
                long firstCommitted = 0;
                long cpuAtFirst = 0;
                long threadCpuAtFirst = 0;
                long committed = 0;
                long lastProgress = System.nanoTime();
                long total = ends.values().stream().mapToLong(Long::longValue).sum();
                while (committed < total) {
                    TimeUnit.MILLISECONDS.sleep(250);
                    long now = committed(admin, group, ends.keySet());
                    if (now > committed) {
                        lastProgress = System.nanoTime();
                    }
                    committed = now;
                    if (first == 0 && committed > 0) {
                        first = System.nanoTime();
                        firstCommitted = committed;
                        cpuAtFirst = processCpuNanos();
                        threadCpuAtFirst = streamThreadCpuNanos(group);
                    }
                    if (System.nanoTime() - lastProgress > TimeUnit.SECONDS.toNanos(60)) {
                        throw new IllegalStateException(group + " stopped at " + committed + " of " + total
                                + " committed: " + admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get()
                                + " ends " + ends);
                    }
                }
                // every record in the first commit leaves nothing after it to time (a small input on a fast
                // machine): timed from the launch then, start-up included, and the line says so
                boolean fromLaunch = firstCommitted == total;
                if (fromLaunch) {
                    first = launched;
                    firstCommitted = 0;
                    cpuAtFirst = cpuAtLaunch;
                    threadCpuAtFirst = 0;
                }
                double seconds = (System.nanoTime() - first) / 1e9;
                long counted = total - firstCommitted;
                long threadCpu = streamThreadCpuNanos(group) - threadCpuAtFirst;
                Rate rate = new Rate(counted / seconds, (processCpuNanos() - cpuAtFirst) / 1e3 / counted,
                        threadCpu / 1e3 / counted);
                double threadBusy = threadCpu / 1e9 / seconds;
                out.printf("  %-16s %,d records in %.1fs %s: %,.0f records/s, %.2f us CPU per record,"
                                + " stream threads %.0f%% of a core (%.2f us per record)%s%n", group, counted, seconds,
                        fromLaunch ? "from launch (all in its first commit: start-up included)" : "after start-up",
                        rate.perSecond(), rate.cpuMicrosPerRecord(), 100 * threadBusy, rate.threadMicrosPerRecord(),
                        seconds < 60 ? " (short of a sustained minute: add --records)" : "");
                out.printf("  %-16s records its internal topics took per 1,000 input records: %s%n", "",
                        internalWrites(admin, group, total));
                return rate;
            }
        }
    }

    /**
     * What an app wrote to its repartition topics and changelogs, per 1,000 input records, by topic
     * (without the application id): the broker's share of an app's cost, and how much state a
     * monitor writes (a record held above the watermark at a commit costs a changelog record, and
     * its tombstone another).
     */
    private static String internalWrites(Admin admin, String applicationId, long inputRecords) throws Exception {
        String prefix = applicationId + "-";
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (var d : admin.describeTopics(admin.listTopics().names().get().stream().filter(t -> t.startsWith(prefix)).toList())
                .allTopicNames().get().values()) {
            d.partitions().forEach(p -> request.put(new TopicPartition(d.name(), p.partition()), OffsetSpec.latest()));
        }
        Map<String, Long> byTopic = new TreeMap<>();
        for (var e : admin.listOffsets(request).all().get().entrySet()) {
            byTopic.merge(e.getKey().topic().substring(prefix.length()), e.getValue().offset(), Long::sum);
        }
        if (byTopic.isEmpty()) {
            return "none";
        }
        StringBuilder line = new StringBuilder();
        byTopic.forEach((topic, n) -> line.append(line.isEmpty() ? "" : ", ")
                .append(String.format("%s %.1f", topic, 1000.0 * n / inputRecords)));
        return line.toString();
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /** CPU time of the live stream threads of one application (Kafka Streams names them after its client id). */
    private static long streamThreadCpuNanos(String applicationId) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith(applicationId + "-StreamThread-")) {
                sum += Math.max(0, threads.getThreadCpuTime(t.getId()));
            }
        }
        return sum;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static Map<TopicPartition, Long> endOffsets(Admin admin) throws Exception {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (Source s : RAW) {
            var description = admin.describeTopics(List.of(TOPICS.input(s))).allTopicNames().get().get(TOPICS.input(s));
            description.partitions().forEach(p -> request.put(new TopicPartition(TOPICS.input(s), p.partition()), OffsetSpec.latest()));
        }
        Map<TopicPartition, Long> ends = new HashMap<>();
        for (Map.Entry<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> e
                : admin.listOffsets(request).all().get().entrySet()) {
            ends.put(e.getKey(), e.getValue().offset());
        }
        return ends;
    }

    private static long committed(Admin admin, String group, Collection<TopicPartition> partitions) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
        long sum = 0;
        for (TopicPartition tp : partitions) {
            OffsetAndMetadata o = offsets.get(tp);
            if (o != null) {
                sum += o.offset();
            }
        }
        return sum;
    }

    /** Wall time from producing "backend X has no server available!" to its alert, under background load. */
    private static void latency(EmbeddedKafkaBroker broker, SchemaRegistryServer registry, int samples, int partitions,
            Map<String, String> streamsConfig, PrintStream out) throws Exception {
        StreamAppConfig config = config(broker, registry, "hcwatch-latency", streamsConfig);
        try (Admin admin = broker.admin()) {
            // a deployment that is caught up: the throughput run's backlog is not this measurement's business
            Map<TopicPartition, OffsetAndMetadata> start = new HashMap<>();
            endOffsets(admin).forEach((tp, end) -> start.put(tp, new OffsetAndMetadata(end)));
            admin.alterConsumerGroupOffsets("hcwatch-latency", start).all().get();
        }
        Map<String, Long> sentAt = new ConcurrentHashMap<>();
        List<Long> latencies = new ArrayList<>();
        AtomicBoolean running = new AtomicBoolean(true);
        try (StreamApp app = new StreamApp(config);
             KafkaProducer<byte[], byte[]> producer = producer(broker);
             KafkaConsumer<String, Alert> alerts = new KafkaConsumer<>(Map.of("bootstrap.servers", broker.bootstrapServers(),
                     "group.id", "latency-reader", "auto.offset.reset", "latest"), Serdes.String().deserializer(),
                     SpecificAvroSerde.forValues(Alert.class, Map.of("schema.registry.url", registry.url())).deserializer())) {
            app.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!app.isReady() && System.nanoTime() < deadline) {
                TimeUnit.MILLISECONDS.sleep(100);
            }
            alerts.subscribe(List.of(TOPICS.alerts()));
            while (alerts.assignment().isEmpty()) {
                alerts.poll(Duration.ofMillis(100));
            }
            Thread background = new Thread(() -> backgroundLoad(producer, running, partitions), "background-load");
            background.start();
            HaproxyLineFormat format = new HaproxyLineFormat(ZoneOffset.UTC);
            for (int i = 0; i < samples + 10; i++) {
                String backend = "be-latency-" + i;
                long now = System.currentTimeMillis();
                byte[] line = format.noServerAvailable(BackendEvent.newBuilder().setTs(Instant.ofEpochMilli(now)).setSource("haproxy")
                        .setHost("lb9").setBackend(backend).setKind(BackendEventKind.no_server_available).build())
                        .getBytes(StandardCharsets.UTF_8);
                sentAt.put("no_healthy_targets/" + backend, System.nanoTime());
                producer.send(new ProducerRecord<>(TOPICS.input(Source.HAPROXY), null, now, null, line));
                producer.flush();
                long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
                while (System.nanoTime() < until) {
                    for (var r : alerts.poll(Duration.ofMillis(20))) {
                        Long at = sentAt.remove(r.key());
                        if (at != null && r.value().getStatus() == io.hcwatch.avro.v1.AlertStatus.firing) {
                            long micros = (System.nanoTime() - at) / 1000;
                            if (Integer.parseInt(r.key().substring(r.key().lastIndexOf('-') + 1)) >= 10) {
                                latencies.add(micros);
                            }
                        }
                    }
                }
            }
            // long enough for a starved machine (three CI test JVMs on two cores took over 5 s: "no alert
            // arrived"); an alert that arrives late is still measured, so the figure says how late it was
            long drain = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!sentAt.isEmpty() && System.nanoTime() < drain) {
                for (var r : alerts.poll(Duration.ofMillis(50))) {
                    Long at = sentAt.remove(r.key());
                    if (at != null) {
                        latencies.add((System.nanoTime() - at) / 1000);
                    }
                }
            }
            running.set(false);
            background.join();
        }
        latencies.sort(Long::compare);
        if (latencies.isEmpty()) {
            out.println("alert latency: no alert arrived");
            return;
        }
        out.printf("alert latency (produce -> alert on the alerts topic, %d samples under ~5k records/s background):"
                        + " p50 %d ms, p99 %d ms, max %d ms%n", latencies.size(), percentile(latencies, 50) / 1000,
                percentile(latencies, 99) / 1000, latencies.get(latencies.size() - 1) / 1000);
    }

    private static void backgroundLoad(KafkaProducer<byte[], byte[]> producer, AtomicBoolean running, int partitions) {
        BenchWorkload workload = new BenchWorkload(5, 5_000, false);
        int[] next = {0};
        while (running.get()) {
            long sliceStart = System.nanoTime();
            // live telemetry: the lines carry the time they are sent, as the alert-raising line does, and
            // reach every partition the way shippers that pick a partition per line spread them
            workload.generate(500, System.currentTimeMillis(), line -> producer.send(new ProducerRecord<>(
                    TOPICS.input(line.source()), next[0]++ % partitions, line.eventTime(), null, line.value())));
            long spent = (System.nanoTime() - sliceStart) / 1_000_000;
            try {
                TimeUnit.MILLISECONDS.sleep(Math.max(0, 100 - spent));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static long percentile(List<Long> sorted, int p) {
        int i = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, i)));
    }

    /**
     * Records per second, and microseconds of CPU per record: the whole JVM's, and the app's stream
     * threads' alone (without the JIT compiler, GC and broker, which a short run on two cores
     * spends a quarter or more of the JVM's CPU on).
     */
    record Rate(double perSecond, double cpuMicrosPerRecord, double threadMicrosPerRecord) {
    }

    @FunctionalInterface
    private interface Measurement {
        void run() throws Exception;
    }

    @FunctionalInterface
    interface Starter {
        AutoCloseable start() throws Exception;
    }
}
