package io.hcwatch.collect.alb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.hcwatch.app.StreamApp;
import io.hcwatch.app.StreamAppConfig;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.cli.Main;
import io.hcwatch.cluster.ClusterLogin;
import io.hcwatch.collect.ConfigReader;
import io.hcwatch.kafka.EmbeddedKafkaBroker;
import io.hcwatch.kafka.SecuredListeners;
import io.hcwatch.registry.InMemorySchemaRegistry;
import io.hcwatch.registry.SchemaRegistryServer;
import io.hcwatch.serde.SpecificAvroSerde;
import io.hcwatch.sink.SinkApp;
import io.hcwatch.testsupport.RepoFiles;
import io.hcwatch.testsupport.TestCertificates;
import io.hcwatch.topology.Source;
import io.hcwatch.topology.Topics;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.Reader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * hcwatch against a secured cluster: the in-process broker with a SASL_SSL listener (SCRAM-SHA-512,
 * a TLS key the test makes) and a schema registry that demands basic auth. Every secret is in a
 * file the properties refer to through Kafka's config providers ({@code file} for the Kafka
 * password and the truststore's, {@code dir} for the registry's user info), none in the
 * properties files themselves. The stream app, the sink and {@code collect alb} (polling the
 * ELBv2 stand-in, publishing Avro) carry a zone's failure from the collector to the sink's output;
 * a wrong password, an untrusted broker certificate and a SASL mechanism the cluster does not
 * offer (MSK IAM, from the production jars too) each stop {@code run}, {@code sink} and
 * {@code collect} with exit code 2 and one line saying why; and no password shows in the logs
 * (Kafka's clients at INFO, so their config dumps are in), the errors, the metrics or the
 * configs' descriptions. In this package for the ELBv2 stand-in; its own tests are beside it in
 * collectors/.
 */
class SecuredClusterIT {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String KAFKA_PASSWORD = secret("kafka");
    private static final String WRONG_PASSWORD = secret("wrong");
    private static final String REGISTRY_PASSWORD = secret("registry");
    private static final String STORE_PASSWORD = secret("store");
    private static final String REGISTRY_USER = "hcwatch-sr";
    private static final Duration EXIT_WITHIN = Duration.ofSeconds(90);

    @TempDir
    static Path dir;
    private static final ByteArrayOutputStream LOGS = new ByteArrayOutputStream();
    private static PrintStream originalErr;
    private static EmbeddedKafkaBroker kafka;
    private static SchemaRegistryServer registry;
    private static BasicAuthProxy registryProxy;
    private static TestCertificates tls;
    private static Path secrets;

    private static String secret(String what) {
        byte[] bytes = new byte[12];
        RANDOM.nextBytes(bytes);
        return what + "-" + HexFormat.of().formatHex(bytes);
    }

    @BeforeAll
    static void securedCluster() throws Exception {
        // Kafka's clients log their settings at INFO (passwords as [hidden]): the secrecy check reads those too
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "info");
        originalErr = System.err;
        // slf4j-simple looks System.err up on every write, so this catches all logging from here on
        System.setErr(new PrintStream(LOGS, true, StandardCharsets.UTF_8));
        tls = TestCertificates.selfSigned(dir, "kafka", STORE_PASSWORD);
        kafka = EmbeddedKafkaBroker.start(Map.of(), new SecuredListeners(tls.keystore(), tls.truststore(), tls.password(),
                Map.of("hcwatch", KAFKA_PASSWORD)));
        Topics topics = Topics.defaults();
        List<String> names = new ArrayList<>(topics.inputs().values());
        names.add(topics.alerts());
        names.add(topics.incidents());
        names.add(topics.deadLetters());
        names.add("alerts-dlq");
        kafka.createTopics(1, names);
        registry = new SchemaRegistryServer(new InMemorySchemaRegistry()).start();
        registryProxy = new BasicAuthProxy(registry.url(), REGISTRY_USER + ":" + REGISTRY_PASSWORD);

        secrets = Files.createDirectories(dir.resolve("secrets"));
        Files.writeString(secrets.resolve("kafka.properties"), "password=" + KAFKA_PASSWORD + "\ntruststore.password="
                + STORE_PASSWORD + "\n");
        Files.writeString(secrets.resolve("kafka-wrong.properties"), "password=" + WRONG_PASSWORD + "\ntruststore.password="
                + STORE_PASSWORD + "\n");
        Files.createDirectories(secrets.resolve("registry"));
        Files.writeString(secrets.resolve("registry").resolve("user-info"), REGISTRY_USER + ":" + REGISTRY_PASSWORD);
    }

    @AfterAll
    static void stop() {
        System.setErr(originalErr);
        registryProxy.close();
        registry.close();
        kafka.close();
    }

    /** What every command's file says about the cluster and the registry: references to secrets, no secret. */
    private static String connection(String secretsFile) {
        return "bootstrap.servers=" + kafka.saslSslBootstrapServers() + "\n"
                + "schema.registry.url=" + registryProxy.url() + "\n"
                + "config.providers=file,dir\n"
                + "config.providers.file.class=org.apache.kafka.common.config.provider.FileConfigProvider\n"
                + "config.providers.dir.class=org.apache.kafka.common.config.provider.DirectoryConfigProvider\n"
                + "security.protocol=SASL_SSL\n"
                + "sasl.mechanism=SCRAM-SHA-512\n"
                + "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"hcwatch\" \\\n"
                + "    password=\"${file:" + secrets.resolve(secretsFile) + ":password}\";\n"
                + "ssl.truststore.type=PKCS12\n"
                + "ssl.truststore.location=" + tls.truststore() + "\n"
                + "ssl.truststore.password=${file:" + secrets.resolve(secretsFile) + ":truststore.password}\n"
                + "basic.auth.credentials.source=USER_INFO\n"
                + "basic.auth.user.info=${dir:" + secrets.resolve("registry") + ":user-info}\n";
    }

    private static Path streamAppFile(String name, String connection) throws IOException {
        return Files.writeString(dir.resolve(name), connection + "application.id=hcwatch-secured\nmetrics.host=127.0.0.1\n"
                + "metrics.port=0\nstate.dir=" + dir.resolve("state-" + name) + "\ndetect.eval.step=1000ms\n");
    }

    private static Path sinkFile(String name, String connection) throws IOException {
        return Files.writeString(dir.resolve(name), connection + "sinks=stdout\nmetrics.host=127.0.0.1\nmetrics.port=0\n"
                + "group.id=hcwatch-secured-sink\n");
    }

    private static Path collectorFile(String name, String connection, ElbStandIn elb) throws IOException {
        StringBuilder text = new StringBuilder(connection).append("format=avro\nmetrics.host=127.0.0.1\nmetrics.port=0\n")
                .append("alb.health.interval.ms=1000\nalb.config.interval.ms=2000\nalb.api.rate=20\naws.timeout.ms=5000\n");
        Properties standIn = elb.collectorProperties(kafka.saslSslBootstrapServers(), "web-lb");
        for (String key : List.of("aws.region", "aws.endpoint.elbv2", "alb.load-balancers")) {
            text.append(key).append('=').append(standIn.getProperty(key)).append('\n');
        }
        return Files.writeString(dir.resolve(name), text.toString());
    }

    private static Properties load(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
        }
        return p;
    }

    private static ElbStandIn standIn() {
        ElbStandIn elb = new ElbStandIn();
        ElbStandIn.Lb lb = elb.addLb("web-lb", Map.of("us-east-1a", "subnet-8360a9e7", "us-east-1b", "subnet-b7d581c0",
                "us-east-1c", "subnet-c1d2e3f4"));
        ElbStandIn.Tg web = elb.addTg("web", lb, "ip");
        web.intervalSeconds = 5;
        for (int zone = 1; zone <= 3; zone++) {
            for (int k = 0; k < 3; k++) {
                web.add("10.0." + zone + ".1" + k, 8080, "us-east-1" + (char) ('a' + zone - 1));
            }
        }
        return elb;
    }

    @Test
    void theStreamAppTheSinkAndTheAlbCollectorWorkOverSaslSslWithEverySecretFromAProvider() throws Exception {
        List<String> texts = new ArrayList<>();
        ByteArrayOutputStream sinkOut = new ByteArrayOutputStream();
        try (ElbStandIn elb = standIn()) {
            ElbStandIn.Tg web = elb.tgs.get(0);
            StreamAppConfig streamConfig = StreamAppConfig.load(streamAppFile("stream-app.properties", connection("kafka.properties")));
            try (StreamApp app = new StreamApp(streamConfig);
                 SinkApp sink = new SinkApp(load(sinkFile("sink.properties", connection("kafka.properties"))),
                         new PrintStream(sinkOut, true, StandardCharsets.UTF_8));
                 AlbCollector collector = new AlbCollector(AlbConfig.read(ConfigReader.load(
                         collectorFile("collector.properties", connection("kafka.properties"), elb)), () -> null),
                         StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDSTANDIN", "not-a-secret")))) {
                app.start();
                sink.start();
                await("the stream app RUNNING and the sink consuming").atMost(Duration.ofSeconds(90))
                        .until(() -> app.isReady() && sink.isReady());
                collector.start();
                // read back on the broker's plaintext listener by a client of the test's own
                try (KafkaConsumer<String, HealthCheckResult> checks = new KafkaConsumer<>(Map.of("bootstrap.servers",
                        kafka.bootstrapServers(), "group.id", "secured-it-checks", "auto.offset.reset", "earliest"),
                        new StringDeserializer(), SpecificAvroSerde.forValues(HealthCheckResult.class,
                                Map.of("schema.registry.url", registry.url())).deserializer())) {
                    checks.subscribe(List.of(Topics.defaults().input(Source.HEALTH)));
                    Set<String> healthy = new HashSet<>();
                    await("every target published healthy, in Avro").atMost(Duration.ofSeconds(60)).until(() -> {
                        checks.poll(Duration.ofMillis(200)).forEach(r -> {
                            if (r.value().getState() == TargetState.healthy) {
                                healthy.add(r.value().getTarget());
                            }
                        });
                        return healthy.size() == 9;
                    });
                }
                web.targets.stream().filter(t -> t.zone.equals("us-east-1b"))
                        .forEach(t -> t.set("unhealthy", "Target.Timeout", "Request timed out"));
                await("zonal_failure delivered by the sink").atMost(Duration.ofSeconds(90)).untilAsserted(() ->
                        assertThat(sinkOut.toString(StandardCharsets.UTF_8)).contains("\"dedup_key\":\"zonal_failure/web/us-east-1b\""));

                texts.add(app.registry().scrape());
                texts.add(sink.registry().scrape());
                texts.add(scrape(collector.metricsPort()));
                texts.add(streamConfig.toString());
                texts.add(sink.config().toString());
            }
        }
        assertThat(registryProxy.authorized.get()).as("the registry was used (Avro from the collector and the app)").isPositive();
        assertThat(registryProxy.refused.get()).as("every registry request carried the credentials").isZero();
        assertThat(texts.get(0)).as("the stream app's metrics were read").contains("hcwatch_");
        assertNoSecretIn(texts);
        assertNoSecretIn(List.of(sinkOut.toString(StandardCharsets.UTF_8)));
        String logs = LOGS.toString(StandardCharsets.UTF_8);
        assertThat(logs).as("Kafka's clients logged their settings, hiding the JAAS config").contains("sasl.jaas.config = [hidden]");
        assertNoSecretIn(List.of(logs));
    }

    @Test
    void aWrongPasswordStopsRunSinkAndCollectWithExitCodeTwoAndOneLineSayingWhy() throws Exception {
        String wrong = connection("kafka-wrong.properties");
        try (ElbStandIn elb = standIn()) {
            List<CompletableFuture<Integer>> runs = List.of(
                    command("run", "--config", streamAppFile("wrong-run.properties", wrong).toString()),
                    command("sink", "--config", sinkFile("wrong-sink.properties", wrong).toString()),
                    command("collect", "alb", "--config", collectorFile("wrong-collect.properties", wrong, elb).toString()));
            for (CompletableFuture<Integer> run : runs) {
                assertThat(run.get(EXIT_WITHIN.toSeconds(), TimeUnit.SECONDS)).isEqualTo(2);
            }
        }
        String refused = "Kafka at " + kafka.saslSslBootstrapServers() + " (security.protocol=SASL_SSL, sasl.mechanism=SCRAM-SHA-512)"
                + " refused the login: Authentication failed during authentication due to invalid credentials with SASL"
                + " mechanism SCRAM-SHA-512";
        String logs = LOGS.toString(StandardCharsets.UTF_8);
        assertThat(logs.lines().filter(l -> l.startsWith("hcwatch: " + refused) || l.startsWith("alb: " + refused)))
                .as("one line from each command").hasSize(3);
        assertNoSecretIn(List.of(logs));
    }

    @Test
    void aBrokerCertificateTheTruststoreDoesNotHoldStopsTheCommandNamingTheTlsSettings() throws Exception {
        TestCertificates other = TestCertificates.selfSigned(dir, "other", STORE_PASSWORD);
        String untrusting = connection("kafka.properties").replace(tls.truststore().toString(), other.truststore().toString());

        assertThat(command("sink", "--config", sinkFile("untrusting-sink.properties", untrusting).toString())
                .get(EXIT_WITHIN.toSeconds(), TimeUnit.SECONDS)).isEqualTo(2);
        assertThat(LOGS.toString(StandardCharsets.UTF_8)).contains("hcwatch: the TLS handshake with Kafka at "
                + kafka.saslSslBootstrapServers() + " (security.protocol=SASL_SSL, sasl.mechanism=SCRAM-SHA-512) failed: SSL"
                + " handshake failed");
    }

    /**
     * MSK IAM's login module and callback handler load in every production jar and in {@code ./hcwatch}:
     * this cluster does not offer the mechanism, so each stops at the SASL handshake, having made its client.
     */
    @Test
    void mskIamLoadsInEveryProductionJarAndAClusterWithoutItStopsTheCommand() throws Exception {
        String iam = "bootstrap.servers=" + kafka.saslSslBootstrapServers() + "\nschema.registry.url=" + registryProxy.url() + "\n"
                + "security.protocol=SASL_SSL\nsasl.mechanism=AWS_MSK_IAM\n"
                + "sasl.jaas.config=software.amazon.msk.auth.iam.IAMLoginModule required;\n"
                + "sasl.client.callback.handler.class=software.amazon.msk.auth.iam.IAMClientCallbackHandler\n"
                + "ssl.truststore.type=PKCS12\nssl.truststore.location=" + tls.truststore() + "\n"
                + "ssl.truststore.password=" + STORE_PASSWORD + "\n";
        Path run = streamAppFile("iam-run.properties", iam);
        Path sink = sinkFile("iam-sink.properties", iam);
        Path collect;
        try (ElbStandIn elb = standIn()) {
            collect = collectorFile("iam-collect.properties", iam, elb);
        }
        String unsupported = "(security.protocol=SASL_SSL, sasl.mechanism=AWS_MSK_IAM) refused the login: Client SASL mechanism"
                + " 'AWS_MSK_IAM' not enabled in the server, enabled mechanisms are [SCRAM-SHA-512, PLAIN]";
        Path root = Path.of("..").toAbsolutePath().normalize();
        List<Path> jars = List.of(root.resolve("stream-app/target/hcwatch-stream-app.jar"),
                root.resolve("alert-sink/target/hcwatch-sink.jar"), root.resolve("collectors/target/hcwatch-collect.jar"));
        assertThat(jars).as("the production jars, built by their modules' package phase").allMatch(Files::isRegularFile);
        List<Process> processes = List.of(
                jar(jars.get(0), "iam-run.log", "run", "--config", run.toString()),
                jar(jars.get(1), "iam-sink.log", "--config", sink.toString()),
                jar(jars.get(2), "iam-collect.log", "alb", "--config", collect.toString()));
        assertThat(command("run", "--config", run.toString()).get(EXIT_WITHIN.toSeconds(), TimeUnit.SECONDS)).isEqualTo(2);
        assertThat(LOGS.toString(StandardCharsets.UTF_8)).contains(unsupported);
        for (int i = 0; i < processes.size(); i++) {
            Process process = processes.get(i);
            assertThat(process.waitFor(EXIT_WITHIN.toSeconds(), TimeUnit.SECONDS)).as(jars.get(i) + " exits").isTrue();
            String output = Files.readString(dir.resolve(List.of("iam-run.log", "iam-sink.log", "iam-collect.log").get(i)));
            assertThat(process.exitValue()).as(output).isEqualTo(2);
            assertThat(output).contains(unsupported);
        }
    }

    /**
     * Every example of README's "Connecting to your Kafka cluster", as each command reads it: its
     * bootstrap servers and {@code /run/secrets} pointed at this test's cluster and secrets (and,
     * where the example relies on a public CA, this cluster's truststore added), then logged in to
     * with the client settings each command's config makes of it.
     */
    @Test
    void theReadmeExamplesLoadInEveryCommandAndLogInWhereThisClusterOffersTheirMechanism() throws Exception {
        Path mount = Files.createDirectories(dir.resolve("readme-secrets"));
        Map<String, String> contents = Map.of("kafka/password", KAFKA_PASSWORD, "kafka/keystore-password", STORE_PASSWORD,
                "kafka/truststore-password", STORE_PASSWORD, "confluent/api-key", "hcwatch", "confluent/api-secret", KAFKA_PASSWORD,
                "confluent/registry-key", REGISTRY_USER, "confluent/registry-secret", REGISTRY_PASSWORD,
                "oidc/client-secret", secret("oidc"));
        for (Map.Entry<String, String> file : contents.entrySet()) {
            Files.createDirectories(mount.resolve(file.getKey()).getParent());
            Files.writeString(mount.resolve(file.getKey()), file.getValue());
        }
        Files.copy(tls.keystore(), mount.resolve("kafka/client.p12"));
        Files.copy(tls.truststore(), mount.resolve("kafka/ca.p12"));

        Map<String, String> examples = readmeExamples();
        assertThat(examples.keySet()).containsExactly("Amazon MSK, IAM access control", "Amazon MSK, SASL/SCRAM",
                "Confluent Cloud, API keys", "A self-run cluster, mutual TLS", "OAUTHBEARER, OIDC client credentials");
        try (ElbStandIn elb = standIn()) {
            for (Map.Entry<String, String> example : examples.entrySet()) {
                String text = example.getValue();
                java.util.regex.Matcher secretPaths = java.util.regex.Pattern.compile("/run/secrets/([^:}\\s]+)(?::([^}\\s]+))?")
                        .matcher(text);
                while (secretPaths.find()) {
                    String file = secretPaths.group(2) == null ? secretPaths.group(1) : secretPaths.group(1) + "/" + secretPaths.group(2);
                    assertThat(mount.resolve(file)).as(example.getKey() + " refers to a secret this test mounts").exists();
                }
                boolean mutualTls = text.contains("security.protocol=SSL\n");
                text = text.replaceAll("(?m)^bootstrap\\.servers=.*$", "bootstrap.servers="
                        + (mutualTls ? kafka.mutualTlsBootstrapServers() : kafka.saslSslBootstrapServers()))
                        .replaceAll("(?m)^schema\\.registry\\.url=.*\\n", "")
                        .replace("/run/secrets", mount.toString())
                        + "schema.registry.url=" + registryProxy.url() + "\n";
                if (!text.contains("ssl.truststore.location=")) {
                    text += "ssl.truststore.type=PKCS12\nssl.truststore.location=" + tls.truststore() + "\nssl.truststore.password="
                            + STORE_PASSWORD + "\n";
                }
                String name = example.getKey().replaceAll("[^A-Za-z]+", "-");
                Map<String, Map<String, Object>> clients = Map.of(
                        "run", new HashMap<>(new org.apache.kafka.streams.StreamsConfig(StreamApp.streamsProperties(
                                StreamAppConfig.load(streamAppFile(name + "-run.properties", text)))).getAdminConfigs("readme")),
                        "sink", sinkClient(io.hcwatch.sink.SinkConfig.from(load(sinkFile(name + "-sink.properties", text)))),
                        "collect", collectorClient(AlbConfig.read(ConfigReader.load(collectorFile(name + "-collect.properties",
                                text, elb)), () -> null)));
                for (Map.Entry<String, Map<String, Object>> client : clients.entrySet()) {
                    String what = example.getKey() + ", " + client.getKey();
                    switch (example.getKey()) {
                        case "Amazon MSK, IAM access control" -> assertThatThrownBy(() -> ClusterLogin.verify(client.getValue(), "readme"))
                                .as(what).hasMessageContaining("Client SASL mechanism 'AWS_MSK_IAM' not enabled in the server");
                        case "OAUTHBEARER, OIDC client credentials" -> assertThatThrownBy(() ->
                                ClusterLogin.verify(client.getValue(), "readme")).as(what)
                                .hasMessageContaining("org.apache.kafka.sasl.oauthbearer.allowed.urls");
                        default -> {
                            try (Admin admin = Admin.create(adminSettings(client.getValue()))) {
                                assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)).as(what).hasSize(1);
                            }
                        }
                    }
                }
            }
        }
        assertNoSecretIn(List.of(LOGS.toString(StandardCharsets.UTF_8)));
    }

    /** The blocks of README's "Connecting to your Kafka cluster" that name a cluster, by their first line's comment. */
    private static Map<String, String> readmeExamples() throws IOException {
        String readme = Files.readString(RepoFiles.resolve("README.md"));
        int start = readme.indexOf("## Connecting to your Kafka cluster\n");
        assertThat(start).as("README has the section").isPositive();
        String section = readme.substring(start, readme.indexOf("\n## ", start + 1));
        Map<String, String> examples = new java.util.LinkedHashMap<>();
        java.util.regex.Matcher blocks = java.util.regex.Pattern.compile("```properties\\n(.*?)```", java.util.regex.Pattern.DOTALL)
                .matcher(section);
        while (blocks.find()) {
            String block = blocks.group(1);
            if (block.contains("bootstrap.servers=")) {
                examples.put(block.lines().findFirst().orElseThrow().replaceFirst("^# ", ""), block);
            }
        }
        return examples;
    }

    private static Map<String, Object> sinkClient(io.hcwatch.sink.SinkConfig config) {
        assertThat(config.producerOverrides()).as("both sink clients get the same settings").isEqualTo(config.consumerOverrides());
        Map<String, Object> settings = new HashMap<>(config.consumerOverrides());
        settings.put("bootstrap.servers", config.bootstrapServers());
        return settings;
    }

    private static Map<String, Object> collectorClient(AlbConfig config) {
        Map<String, Object> settings = new HashMap<>(config.publish().producerOverrides());
        settings.put("bootstrap.servers", config.publish().bootstrapServers());
        return settings;
    }

    private static Map<String, Object> adminSettings(Map<String, Object> client) {
        Map<String, Object> settings = new HashMap<>();
        client.forEach((key, value) -> {
            if (AdminClientConfig.configNames().contains(key)) {
                settings.put(key, value);
            }
        });
        return settings;
    }

    private static Process jar(Path jar, String log, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", jar.toString()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve(log).toFile()).start();
    }

    /** A command of {@code ./hcwatch} in this JVM; it returns only if it stops by itself. */
    private static CompletableFuture<Integer> command(String... args) {
        ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "hcwatch-" + args[0]);
            t.setDaemon(true);
            return t;
        });
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> Main.execute(args), thread);
        exit.whenComplete((code, error) -> thread.shutdown());
        return exit;
    }

    private static String scrape(int port) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/metrics")).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        return response.body();
    }

    private static void assertNoSecretIn(List<String> texts) {
        String registryToken = Base64.getEncoder().encodeToString((REGISTRY_USER + ":" + REGISTRY_PASSWORD)
                .getBytes(StandardCharsets.UTF_8));
        for (String text : texts) {
            assertThat(text).doesNotContain(KAFKA_PASSWORD).doesNotContain(WRONG_PASSWORD).doesNotContain(REGISTRY_PASSWORD)
                    .doesNotContain(registryToken).doesNotContain(STORE_PASSWORD);
        }
    }

    /**
     * The registry behind HTTP basic auth, as a hosted one is: requests without the credentials (the
     * header worked out here, not by the client) are refused with 401; the others go through.
     */
    private static final class BasicAuthProxy implements AutoCloseable {

        final AtomicInteger authorized = new AtomicInteger();
        final AtomicInteger refused = new AtomicInteger();
        private final HttpServer server;
        private final HttpClient client = HttpClient.newHttpClient();
        private final String target;
        private final String expected;

        BasicAuthProxy(String target, String userInfo) throws IOException {
            this.target = target;
            this.expected = "Basic " + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8));
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext("/", this::handle);
            server.setExecutor(Executors.newFixedThreadPool(4, r -> {
                Thread t = new Thread(r, "registry-auth-proxy");
                t.setDaemon(true);
                return t;
            }));
            server.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort();
        }

        private void handle(HttpExchange exchange) throws IOException {
            try (exchange) {
                int status;
                byte[] body;
                if (!expected.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
                    refused.incrementAndGet();
                    status = 401;
                    body = "{\"error_code\":401,\"message\":\"Unauthorized\"}".getBytes(StandardCharsets.UTF_8);
                } else {
                    authorized.incrementAndGet();
                    HttpRequest.Builder forward = HttpRequest.newBuilder(URI.create(target + exchange.getRequestURI()))
                            .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(
                                    exchange.getRequestBody().readAllBytes()));
                    String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
                    if (contentType != null) {
                        forward.header("Content-Type", contentType);
                    }
                    try {
                        HttpResponse<byte[]> response = client.send(forward.build(), HttpResponse.BodyHandlers.ofByteArray());
                        status = response.statusCode();
                        body = response.body();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        status = 503;
                        body = new byte[0];
                    }
                }
                exchange.getResponseHeaders().set("Content-Type", "application/vnd.schemaregistry.v1+json");
                exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }
}
