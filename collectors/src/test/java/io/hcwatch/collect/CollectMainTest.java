package io.hcwatch.collect;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CollectMainTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return CollectMain.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    @Test
    void aBadFlagExitsTwoWithOneLine() {
        assertThat(run("haproxy", "--config", "c.properties", "--konfig", "x")).isEqualTo(2);
        assertThat(err.toString().strip()).doesNotContain("\n").contains("Unknown option", "--konfig");
        err.getBuffer().setLength(0);
        assertThat(run("haproxy")).isEqualTo(2);
        assertThat(err.toString().strip()).doesNotContain("\n").contains("Missing required option");
    }

    @Test
    void noCollectorNamedExitsTwoWithOneLine() {
        assertThat(run()).isEqualTo(2);
        assertThat(err.toString().strip()).doesNotContain("\n").contains("collect haproxy --config FILE");
    }

    @Test
    void aBadConfigExitsTwoWithOneLineNamingTheKey(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("c.properties");
        Files.writeString(file, "bootstrap.servers=127.0.0.1:9\nformat=json\nhaproxy.hosts=web1\n"
                + "haproxy.host.web1.socket=ipv4@10.0.0.5:9999\n");

        assertThat(run("haproxy", "--config", file.toString())).isEqualTo(2);
        assertThat(err.toString().strip()).doesNotContain("\n")
                .isEqualTo("haproxy: config key 'haproxy.host.web1.name': is required for a HAProxy on another machine "
                        + "(ipv4@10.0.0.5:9999): set it to the host name its log lines carry");
    }

    @Test
    void aMissingConfigFileExitsTwo(@TempDir Path dir) {
        assertThat(run("haproxy", "--config", dir.resolve("absent.properties").toString())).isEqualTo(2);
        assertThat(err.toString()).contains("cannot read config file");
    }

    @Test
    void theAwsCollectorsExitTwoNamingTheKey(@TempDir Path dir) throws Exception {
        Path alb = Files.writeString(dir.resolve("alb.properties"), "bootstrap.servers=127.0.0.1:9\nformat=json\n"
                + "aws.region=us-east-1\nalb.load-balancers=web-lb\nalb.api.rate=100\n");
        assertThat(run("alb", "--config", alb.toString())).isEqualTo(2);
        assertThat(err.toString().strip()).isEqualTo("alb: config key 'alb.api.rate': expected 0.05..50.0, got 100");

        err.getBuffer().setLength(0);
        Path logs = Files.writeString(dir.resolve("logs.properties"), "bootstrap.servers=127.0.0.1:9\nformat=json\n"
                + "aws.region=us-east-1\nalb-logs.queue-url=https://sqs.us-east-1.amazonaws.com/123456789012/alb-logs\n"
                + "alb-logs.wait.seconds=21\n");
        assertThat(run("alb-logs", "--config", logs.toString())).isEqualTo(2);
        assertThat(err.toString().strip()).isEqualTo("alb-logs: config key 'alb-logs.wait.seconds': expected 0..20, got 21");
    }
}
