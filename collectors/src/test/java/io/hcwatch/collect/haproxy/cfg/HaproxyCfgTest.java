package io.hcwatch.collect.haproxy.cfg;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.haproxy.BuiltinLogFormats;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Expected values are HAProxy 2.6's documented defaults and inheritance (configuration.txt, sections 4 and 5). */
class HaproxyCfgTest {

    @Test
    void serversTakeDefaultServerThenTheirOwnParametersAndHaproxysDefaultsForTheRest() {
        HaproxyCfg.Settings s = HaproxyCfg.parse("""
                global
                    maxconn 1000
                defaults
                    mode http
                    timeout connect 1s
                    timeout check 2s
                    default-server inter 3s fall 5
                backend be_web
                    option httpchk GET /health
                    default-server rise 4
                    server a 10.0.0.1:80 check
                    server b 10.0.0.2:80 check inter 500 fastinter 250ms downinter 10s rise 1 fall 2
                    server c 10.0.0.3:80
                backend be_plain
                    server d 10.0.0.4:80 check
                """);

        assertThat(s.servers().get("be_web").get("a"))
                .isEqualTo(new ServerCheckConfig(true, 3_000, 3_000, 3_000, 4, 5, 2_000, 1_000, "/health"));
        assertThat(s.servers().get("be_web").get("b"))
                .isEqualTo(new ServerCheckConfig(true, 500, 250, 10_000, 1, 2, 2_000, 1_000, "/health"));
        assertThat(s.servers().get("be_web").get("c").checked()).isFalse();
        assertThat(s.servers().get("be_plain").get("d"))
                .as("a proxy without option httpchk checks TCP; default-server lines of another backend do not apply")
                .isEqualTo(new ServerCheckConfig(true, 3_000, 3_000, 3_000, 2, 5, 2_000, 1_000, null));
    }

    @Test
    void withoutTimeoutCheckTheWholeCheckIsBoundByInter() {
        ServerCheckConfig c = HaproxyCfg.parse("""
                backend b
                    timeout connect 5s
                    server s 127.0.0.1:1 check inter 1500
                """).servers().get("b").get("s");

        assertThat(c.checkTimeoutMs()).isNull();
        assertThat(c.timeoutMs()).isEqualTo(1_500);
        assertThat(c.connectLimitMs()).isEqualTo(1_500);
        assertThat(new ServerCheckConfig(true, 2_000, 2_000, 2_000, 2, 3, 700, 5_000, null).connectLimitMs())
                .as("with timeout check, the connect is bound by min(timeout connect, inter)").isEqualTo(2_000);
    }

    @Test
    void aNewDefaultsSectionResetsAndNamedDefaultsAreChosenWithFrom() {
        HaproxyCfg.Settings s = HaproxyCfg.parse("""
                defaults slow
                    timeout check 10s
                    option httpchk /slow
                backend one
                    server s 127.0.0.1:1 check
                defaults
                    timeout connect 3s
                backend two
                    server s 127.0.0.1:1 check
                backend three from slow
                    timeout check 4s
                    server s 127.0.0.1:1 check
                """);

        assertThat(s.servers().get("one").get("s").checkTimeoutMs()).isEqualTo(10_000);
        assertThat(s.servers().get("one").get("s").httpPath()).isEqualTo("/slow");
        assertThat(s.servers().get("two").get("s").checkTimeoutMs()).isNull();
        assertThat(s.servers().get("two").get("s").httpPath()).isNull();
        assertThat(s.servers().get("three").get("s").checkTimeoutMs()).isEqualTo(4_000);
        assertThat(s.servers().get("three").get("s").httpPath()).isEqualTo("/slow");
    }

    @Test
    void httpchkTakesTheUriFromItsArgumentsOrFromHttpCheckSend() {
        assertThat(path("option httpchk")).isEqualTo("/");
        assertThat(path("option httpchk /ping")).isEqualTo("/ping");
        assertThat(path("option httpchk HEAD /ready HTTP/1.1")).isEqualTo("/ready");
        assertThat(path("option httpchk\n    http-check send meth GET uri /status ver HTTP/1.1")).isEqualTo("/status");
        assertThat(path("option httpchk /x\n    option tcp-check")).isNull();
    }

    private static String path(String directives) {
        return HaproxyCfg.parse("backend b\n    " + directives + "\n    server s 127.0.0.1:1 check\n")
                .servers().get("b").get("s").httpPath();
    }

    @Test
    void serverTemplatesMakeOneServerPerNumber() {
        HaproxyCfg.Settings s = HaproxyCfg.parse("""
                backend b
                    server-template web 1-3 app.internal:8080 check inter 1s
                """);

        assertThat(s.servers().get("b")).containsOnlyKeys("web1", "web2", "web3");
        assertThat(s.servers().get("b").get("web2").interMs()).isEqualTo(1_000);
    }

    @Test
    void eachFrontendLogsWithItsLogFormatOrTheFormatOfItsLogOption() {
        HaproxyCfg.Settings s = HaproxyCfg.parse("""
                defaults
                    mode http
                    option httplog
                frontend plain
                    bind :80
                frontend json
                    log-format '{"client":"%ci","status":%ST,"tr":"%tr"}'
                frontend escaped
                    log-format %ci:%cp\\ [%tr]\\ %ft\\ "%{+Q}r" # a comment
                frontend https
                    option httpslog
                frontend clf
                    option httplog clf
                frontend raw
                    mode tcp
                    option tcplog
                frontend tcp_with_httplog
                    mode tcp
                listen both
                    bind :81
                    server s 127.0.0.1:1 check
                """);

        assertThat(s.logFormats().get("plain")).isEqualTo(BuiltinLogFormats.HTTPLOG);
        assertThat(s.logFormats().get("json")).isEqualTo("{\"client\":\"%ci\",\"status\":%ST,\"tr\":\"%tr\"}");
        assertThat(s.logFormats().get("escaped")).isEqualTo("%ci:%cp [%tr] %ft %{+Q}r");
        assertThat(s.logFormats().get("https")).isEqualTo(BuiltinLogFormats.HTTPSLOG);
        assertThat(s.logFormats().get("clf")).isEqualTo(BuiltinLogFormats.CLF);
        assertThat(s.logFormats().get("raw")).isEqualTo(BuiltinLogFormats.TCPLOG);
        assertThat(s.logFormats().get("tcp_with_httplog")).as("HAProxy falls back to tcplog outside mode http")
                .isEqualTo(BuiltinLogFormats.TCPLOG);
        assertThat(s.logFormats().get("both")).isEqualTo(BuiltinLogFormats.HTTPLOG);
        assertThat(s.servers()).containsOnlyKeys("both");
    }

    @Test
    void aFrontendWithoutLogOptionHasNoTrafficFormat() {
        assertThat(HaproxyCfg.parse("frontend f\n    bind :80\n").logFormats()).isEmpty();
    }

    @Test
    void wordsSplitAsHaproxySplitsThem() {
        assertThat(CfgWords.split("  log-format \"a b\\\"c\" 'd\\e' f\\ g # h")).isEqualTo(List.of("log-format", "a b\"c", "d\\e", "f g"));
        assertThat(CfgWords.split("x \\x41\\t")).isEqualTo(List.of("x", "A\t"));
        assertThat(CfgWords.split("   # only a comment")).isEmpty();
    }

    @Test
    void timesAreMillisecondsUnlessTheyCarryAUnit() {
        assertThat(CfgTime.millis("500")).isEqualTo(500);
        assertThat(CfgTime.millis("2s")).isEqualTo(2_000);
        assertThat(CfgTime.millis("1m")).isEqualTo(60_000);
        assertThat(CfgTime.millis("1500us")).isEqualTo(1);
        assertThat(CfgTime.millis("2x")).isNull();
        assertThat(CfgTime.millis("")).isNull();
    }
}
