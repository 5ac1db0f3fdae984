package io.hcwatch.collect.alblogs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KeyRouterTest {

    private final KeyRouter defaults = new KeyRouter(Pattern.compile(KeyRouter.DEFAULT_ACCESS), Pattern.compile(KeyRouter.DEFAULT_HEALTH));

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource(nullValues = "none", value = {
        "AWSLogs/123456789012/elasticloadbalancing/us-east-2/2026/12/02/123456789012_elasticloadbalancing_us-east-2_app.my-lb.1234567890abcdef_20261202T0735Z_172.160.001.192_20sg8hgm.log.gz, ACCESS",
        "prefix/a/AWSLogs/123456789012/elasticloadbalancing/us-east-2/2026/12/02/123456789012_elasticloadbalancing_us-east-2_app.my-lb.1234567890abcdef_20261202T0735Z_10.0.1.5_20sg8hgm.log.gz, ACCESS",
        "AWSLogs/123456789012/elasticloadbalancing/us-east-2/2026/12/02/health_check_log_123456789012_elasticloadbalancing_us-east-2_app.my-lb.1234567890abcdef_20261202T0735Z_10.0.1.5_20sg8hgm.log.gz, HEALTH",
        "AWSLogs/123456789012/elasticloadbalancing/us-east-2/2026/12/02/conn_log_123456789012_elasticloadbalancing_us-east-2_app.my-lb.1234567890abcdef_20261202T0735Z_10.0.1.5_20sg8hgm.log.gz, none",
        "AWSLogs/123456789012/elasticloadbalancing/us-east-2/2026/12/02/123456789012_elasticloadbalancing_us-east-2_net.my-nlb.1234567890abcdef_20261202T0735Z_abcdef.log.gz, none",
        "AWSLogs/123456789012/ELBAccessLogTestFile, none",
        "other/file.log.gz, none",
    })
    void albLogKeysAreRoutedByTheirFileNames(String key, KeyRouter.Route expected) {
        assertThat(defaults.route(key)).isEqualTo(expected);
    }

    @Test
    void routingCanBeSetByPrefix() {
        KeyRouter byPrefix = new KeyRouter(Pattern.compile("^access/"), Pattern.compile("^health/"));

        assertThat(byPrefix.route("access/anything.log")).isEqualTo(KeyRouter.Route.ACCESS);
        assertThat(byPrefix.route("health/x")).isEqualTo(KeyRouter.Route.HEALTH);
        assertThat(byPrefix.route("elsewhere/access/x")).isNull();
    }
}
