package io.hcwatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code replay --log-format}: a frontend's own format declared on the command line, as haproxy.cfg
 * has it; or published by the collector in the lb-config records given with {@code --config}.
 */
class ReplayLogFormatTest {

    @TempDir
    Path dir;

    @Test
    void linesInADeclaredFormatAreReadAndWithoutItTheyAreDeadLetteredSayingHowToDeclareIt() throws IOException {
        // as HAProxy 2.6 wrote it (captures/haproxy-log-formats)
        Path log = Files.write(dir.resolve("haproxy.log"), List.of("<134>Dec  6 02:09:42 haproxy[31838]: "
                + "{\"ts\":\"06/Dec/2026:02:09:42.211\",\"client\":\"127.0.0.1:45732\",\"fe\":\"fe_json\",\"be\":\"fe_json\","
                + "\"srv\":\"<NOSRV>\",\"timers\":\"0/-1/-1/-1/0\",\"status\":403,\"bytes\":192,\"tsc\":\"PR--\","
                + "\"conn\":\"1/1/0/0/0\",\"queue\":\"0/0\",\"req\":\"GET /admin/users HTTP/1.1\",\"ua\":\"curl/7.88.1\"}"),
                StandardCharsets.UTF_8);
        String format = "'{\"ts\":\"%t\",\"client\":\"%ci:%cp\",\"fe\":\"%ft\",\"be\":\"%b\",\"srv\":\"%s\","
                + "\"timers\":\"%TR/%Tw/%Tc/%Tr/%Ta\",\"status\":%ST,\"bytes\":%B,\"tsc\":\"%tsc\",\"conn\":\"%ac/%fc/%bc/%sc/%rc\","
                + "\"queue\":\"%sq/%bq\",\"req\":\"%{+E}r\",\"ua\":\"%{+E}[capture.req.hdr(0)]\"}'";
        Path declaredDlq = dir.resolve("declared.jsonl");
        StringWriter err = new StringWriter();
        assertThat(execute(err, "replay", "--haproxy", log.toString(), "--log-format", "fe_json=" + format,
                "--dlq", declaredDlq.toString())).as(err.toString()).isZero();
        assertThat(Files.readAllLines(declaredDlq)).isEmpty();

        Path undeclaredDlq = dir.resolve("undeclared.jsonl");
        assertThat(execute(new StringWriter(), "replay", "--haproxy", log.toString(), "--dlq", undeclaredDlq.toString())).isZero();
        assertThat(Files.readAllLines(undeclaredDlq)).singleElement().asString().contains("unknown_format")
                .contains("haproxy.log-format.<frontend>=").contains("config-file");
    }

    @Test
    void linesInTheFormatAConfigFilePublishesAreReadWithNothingDeclared() throws IOException {
        Path log = Files.write(dir.resolve("haproxy.log"), List.of("<134>Dec  6 02:09:42 haproxy[31838]: "
                + "{\"ts\":\"06/Dec/2026:02:09:42.211\",\"client\":\"127.0.0.1:45732\",\"fe\":\"fe_json\",\"be\":\"fe_json\","
                + "\"srv\":\"<NOSRV>\",\"status\":403,\"bytes\":192,\"tsc\":\"PR--\"}"), StandardCharsets.UTF_8);
        // lb-config as the collector writes it: the format as HAProxy holds it, quotes of its configuration line removed
        Path config = Files.write(dir.resolve("lb-config.jsonl"), List.of("{\"kind\":\"haproxy_frontend\",\"id\":\"web1/fe_json\","
                + "\"ts\":\"2026-12-06T02:09:40Z\",\"host\":\"web1\",\"frontend\":\"fe_json\",\"maxconn\":500,"
                + "\"log_format\":\"{\\\"ts\\\":\\\"%t\\\",\\\"client\\\":\\\"%ci:%cp\\\",\\\"fe\\\":\\\"%ft\\\","
                + "\\\"be\\\":\\\"%b\\\",\\\"srv\\\":\\\"%s\\\",\\\"status\\\":%ST,\\\"bytes\\\":%B,"
                + "\\\"tsc\\\":\\\"%tsc\\\"}\"}"), StandardCharsets.UTF_8);
        Path dlq = dir.resolve("dlq.jsonl");
        StringWriter err = new StringWriter();
        assertThat(execute(err, "replay", "--haproxy", log.toString(), "--config", config.toString(), "--dlq", dlq.toString()))
                .as(err.toString()).isZero();
        assertThat(Files.readAllLines(dlq)).isEmpty();
    }

    private static int execute(StringWriter err, String... args) {
        CommandLine cli = Cli.commandLine(new StreamAppMain());
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }
}
