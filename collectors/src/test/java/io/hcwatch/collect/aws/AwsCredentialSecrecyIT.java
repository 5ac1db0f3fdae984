package io.hcwatch.collect.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hcwatch.kafka.EmbeddedKafkaBroker;
import io.hcwatch.testsupport.ReservedPort;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * After the sink's RoutingKeySecrecyTest: the collectors take their credentials from the SDK's
 * default chain (here a profile file holding a recognisable fake secret key and session token), the
 * stand-ins fail in every way they can (403 quoting the request with its security token, 500,
 * malformed XML, a refused connection), and neither secret may show in the logs, the metrics or a
 * dead letter.
 */
public class AwsCredentialSecrecyIT {

    static final String SECRET = "hcwatchFAKEsecretKEY0123456789abcdefSECRET";
    static final String TOKEN = "hcwatchFAKEsessionTOKEN0123456789abcdefTOKEN";

    @TempDir
    Path dir;
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();
    private PrintStream originalErr;

    @BeforeEach
    void profileAndLogCapture() throws Exception {
        Path credentials = Files.writeString(dir.resolve("credentials"), "[hcwatch-secrecy]\naws_access_key_id = AKIDSECRECYTEST\n"
                + "aws_secret_access_key = " + SECRET + "\naws_session_token = " + TOKEN + "\n");
        Path config = Files.writeString(dir.resolve("config"), "");
        System.setProperty("aws.sharedCredentialsFile", credentials.toString());
        System.setProperty("aws.configFile", config.toString());
        System.setProperty("aws.profile", "hcwatch-secrecy");
        // nothing in the chain may go looking for instance metadata off this machine
        System.setProperty("aws.disableEc2Metadata", "true");
        originalErr = System.err;
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restore() {
        System.setErr(originalErr);
    }

    @Test
    void neitherTheSecretKeyNorTheSessionTokenShowsInLogsMetricsOrDeadLetters() throws Exception {
        assertThat(AwsSettings.credentials().resolveCredentials().secretAccessKey()).as("the profile is what the chain reads")
                .isEqualTo(SECRET);
        List<String> texts = new ArrayList<>();
        try (EmbeddedKafkaBroker kafka = EmbeddedKafkaBroker.start()) {
            kafka.createTopics(1, "lb-config", "health-check-results", "alb-access-logs", "alb-health-check-logs", "telemetry-dlq");
            texts.addAll(io.hcwatch.collect.alb.HostileElb.run(kafka.bootstrapServers(), "http://127.0.0.1:" + ReservedPort.closed()));
            texts.addAll(io.hcwatch.collect.alblogs.HostileS3.run(kafka.bootstrapServers(), dir, "http://127.0.0.1:" + ReservedPort.closed()));
            try (KafkaConsumer<String, String> c = new KafkaConsumer<>(Map.of("bootstrap.servers", kafka.bootstrapServers(),
                    "group.id", "secrecy", "auto.offset.reset", "earliest"), new StringDeserializer(), new StringDeserializer())) {
                c.subscribe(List.of("telemetry-dlq"));
                List<String> letters = new ArrayList<>();
                await("the dead letter of the denied object").atMost(Duration.ofSeconds(30)).until(() -> {
                    c.poll(Duration.ofMillis(200)).forEach(r -> letters.add(r.value()));
                    return !letters.isEmpty();
                });
                assertThat(letters.get(0)).contains("s3_access_denied", "Access Denied for GET");
                texts.addAll(letters);
            }
        }
        String logs = captured.toString(StandardCharsets.UTF_8);
        assertThat(logs).as("the log capture works and saw every failure").contains("access_denied", "server_error",
                "bad_response", "connection_refused", "s3_access_denied");
        assertThat(logs).doesNotContain(SECRET).doesNotContain(TOKEN);
        assertThat(texts).isNotEmpty().allSatisfy(t -> assertThat(t).doesNotContain(SECRET).doesNotContain(TOKEN));
    }

    /** Properties both runs share. */
    public static Properties base(String bootstrap) {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", bootstrap);
        p.setProperty("format", "json");
        p.setProperty("metrics.port", "-1");
        p.setProperty("aws.region", "us-east-1");
        p.setProperty("aws.timeout.ms", "3000");
        return p;
    }
}
