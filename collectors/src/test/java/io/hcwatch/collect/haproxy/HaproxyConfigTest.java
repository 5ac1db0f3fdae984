package io.hcwatch.collect.haproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hcwatch.collect.ConfigException;
import io.hcwatch.collect.ConfigReader;
import io.hcwatch.collect.PublishConfig;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HaproxyConfigTest {

    private static final String BASE = "bootstrap.servers=127.0.0.1:9092\nschema.registry.url=http://127.0.0.1:8081\n";

    private static HaproxyConfig read(String text) {
        return read(text, Map.of());
    }

    private static HaproxyConfig read(String text, Map<String, String> env) {
        Properties p = new Properties();
        try {
            p.load(new StringReader(text));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return HaproxyConfig.read(new ConfigReader(p), env::get, () -> "lbhost");
    }

    @Test
    void aLocalSocketDefaultsToThisMachinesNameAndTheProjectsTopics() {
        HaproxyConfig c = read(BASE + "haproxy.hosts=local\nhaproxy.host.local.socket=/run/haproxy/admin.sock\n");

        assertThat(c.hosts()).singleElement().satisfies(h -> {
            assertThat(h.name()).isEqualTo("lbhost");
            assertThat(h.socket().unixPath()).hasToString("/run/haproxy/admin.sock");
        });
        assertThat(c.configTopic()).isEqualTo("lb-config");
        assertThat(c.healthTopic()).isEqualTo("health-check-results");
        assertThat(c.statsTopic()).isEqualTo("haproxy-stats");
        assertThat(c.pollInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(c.publish().format()).isEqualTo(PublishConfig.Format.AVRO);
        assertThat(c.publish().metricsPort()).isEqualTo(9405);
    }

    @Test
    void aLoopbackTcpSocketIsLocalTooButARemoteOneNeedsAName() {
        assertThat(read(BASE + "haproxy.hosts=a\nhaproxy.host.a.socket=ipv4@127.0.0.1:9999\n").hosts().get(0).name())
                .isEqualTo("lbhost");
        assertThatThrownBy(() -> read(BASE + "haproxy.hosts=a\nhaproxy.host.a.socket=ipv4@10.0.0.5:9999\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("'haproxy.host.a.name': is required");
        assertThat(read(BASE + "haproxy.hosts=a\nhaproxy.host.a.socket=ipv4@10.0.0.5:9999\nhaproxy.host.a.name=web7\n")
                .hosts().get(0)).satisfies(h -> {
                    assertThat(h.name()).isEqualTo("web7");
                    assertThat(h.socket().host()).isEqualTo("10.0.0.5");
                    assertThat(h.socket().port()).isEqualTo(9999);
                });
    }

    @Test
    void twoHostsWithTheSameNameAreRefused() {
        assertThatThrownBy(() -> read(BASE + "haproxy.hosts=a,b\nhaproxy.host.a.socket=/run/a.sock\n"
                + "haproxy.host.b.socket=/run/b.sock\n"))
                .hasMessageContaining("hosts a and b are both named 'lbhost'");
    }

    @Test
    void aStatsPageTakesItsCredentialsFromTheNamedVariable() {
        HaproxyConfig c = read(BASE + "haproxy.hosts=w\nhaproxy.host.w.stats-url=http://10.0.0.5:8404/stats;csv\n"
                + "haproxy.host.w.name=web1\nhaproxy.host.w.stats-auth-env=HAPROXY_STATS_AUTH\n",
                Map.of("HAPROXY_STATS_AUTH", "admin:s3cret"));

        assertThat(c.hosts().get(0).basicAuth()).isEqualTo("admin:s3cret");
        assertThat(c.toString()).doesNotContain("s3cret");
        assertThatThrownBy(() -> read(BASE + "haproxy.hosts=w\nhaproxy.host.w.stats-url=http://10.0.0.5:8404/stats;csv\n"
                + "haproxy.host.w.name=web1\nhaproxy.host.w.stats-auth-env=HAPROXY_STATS_AUTH\n"))
                .hasMessageContaining("HAPROXY_STATS_AUTH must hold user:password but is not set");
        assertThatThrownBy(() -> read(BASE + "haproxy.hosts=w\nhaproxy.host.w.stats-url=http://admin:pw@10.0.0.5/stats;csv\n"
                + "haproxy.host.w.name=web1\n")).hasMessageContaining("must not hold credentials");
        assertThatThrownBy(() -> read(BASE + "haproxy.hosts=w\nhaproxy.host.w.stats-url=http://10.0.0.5/stats\n"
                + "haproxy.host.w.name=web1\n")).hasMessageContaining("ending in ;csv");
    }

    @Test
    void unknownKeysAndUnlistedHostsAreRefused() {
        String ok = "haproxy.hosts=a\nhaproxy.host.a.socket=/run/a.sock\n";
        assertThatThrownBy(() -> read(BASE + ok + "haproxy.poll.intervall.ms=500\n"))
                .hasMessageStartingWith("unknown config key haproxy.poll.intervall.ms");
        assertThatThrownBy(() -> read(BASE + ok + "haproxy.host.b.socket=/run/b.sock\n"))
                .hasMessageContaining("host 'b' is not listed in haproxy.hosts");
        assertThatThrownBy(() -> read(BASE + ok + "haproxy.host.a.sockett=/x\n"))
                .hasMessageContaining("unknown host setting");
        assertThatThrownBy(() -> read(BASE + "haproxy.hosts=a\nhaproxy.host.a.socket=/run/a.sock\n"
                + "haproxy.host.a.stats-url=http://127.0.0.1/stats;csv\n")).hasMessageContaining("exactly one of");
        assertThatThrownBy(() -> read(BASE)).hasMessageContaining("haproxy.hosts");
    }

    @Test
    void jsonNeedsNoRegistryButAvroDoes() {
        String hosts = "haproxy.hosts=a\nhaproxy.host.a.socket=/run/a.sock\n";
        assertThat(read("bootstrap.servers=b:9092\nformat=json\n" + hosts).publish().format()).isEqualTo(PublishConfig.Format.JSON);
        assertThatThrownBy(() -> read("bootstrap.servers=b:9092\n" + hosts)).hasMessageContaining("schema.registry.url");
    }

    @Test
    void kafkaSettingsPassThroughWithTheirPrefix() {
        HaproxyConfig c = read(BASE + "haproxy.hosts=a\nhaproxy.host.a.socket=/run/a.sock\nkafka.compression.type=zstd\n"
                + "kafka.max.block.ms=500\ntopic.haproxy-stats=hx\n");

        assertThat(c.publish().producerOverrides()).containsEntry("compression.type", "zstd").containsEntry("max.block.ms", "500");
        assertThat(c.statsTopic()).isEqualTo("hx");
    }

    @Test
    void aConfigFileMustBeReadableAtStart(@TempDir Path dir) throws IOException {
        Path cfg = Files.writeString(dir.resolve("haproxy.cfg"), "backend b\n");
        String host = "haproxy.hosts=a\nhaproxy.host.a.socket=/run/a.sock\n";

        assertThat(read(BASE + host + "haproxy.host.a.config-file=" + cfg + "\n").hosts().get(0).cfgFile()).isEqualTo(cfg);
        assertThat(read(BASE + host).hosts().get(0).cfgFile()).isNull();
        assertThatThrownBy(() -> read(BASE + host + "haproxy.host.a.config-file=" + dir.resolve("missing.cfg") + "\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("haproxy.host.a.config-file").hasMessageContaining("cannot read HAProxy's configuration");
    }
}
