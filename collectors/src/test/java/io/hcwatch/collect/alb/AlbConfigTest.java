package io.hcwatch.collect.alb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hcwatch.collect.ConfigException;
import io.hcwatch.collect.ConfigReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.regions.Region;

class AlbConfigTest {

    private static Properties base() {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", "kafka:9092");
        p.setProperty("format", "json");
        return p;
    }

    private static AlbConfig read(Properties p, Region chain) {
        return AlbConfig.read(new ConfigReader(p), () -> chain);
    }

    @Test
    void theComposeFilesConfigLoads() {
        // tests run in the module's directory; deploy/ is the repository's
        AlbConfig c = AlbConfig.read(ConfigReader.load(Path.of("..", "deploy", "alb-collector.properties")), () -> null);
        assertThat(c.loadBalancers()).containsExactly(
                "arn:aws:elasticloadbalancing:us-east-1:123456789012:loadbalancer/app/web-lb/50dc6c495c0c9188");
        assertThat(c.aws().region()).isEqualTo(Region.US_EAST_1);
        assertThat(c.apiRate()).isEqualTo(2.0);
        assertThat(c.publish().metricsPort()).isEqualTo(9406);
    }

    @Test
    void defaultsAreTenSecondsFiveMinutesAndTwoRequestsASecond() {
        Properties p = base();
        p.setProperty("alb.load-balancers", "arn:aws:elasticloadbalancing:us-east-1:123456789012:loadbalancer/app/web/1");
        AlbConfig c = read(p, Region.EU_WEST_1);

        assertThat(c.aws().region()).as("from the SDK's chain").isEqualTo(Region.EU_WEST_1);
        assertThat(c.healthInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(c.configInterval()).isEqualTo(Duration.ofMinutes(5));
        assertThat(c.apiRate()).isEqualTo(2.0);
        assertThat(c.apiBurst()).isEqualTo(1);
        assertThat(c.backoffMax()).isEqualTo(c.healthInterval());
        assertThat(c.configTopic()).isEqualTo("lb-config");
        assertThat(c.healthTopic()).isEqualTo("health-check-results");
        assertThat(c.demandPerSecond(50, 5)).as("50 groups every 10 s plus the slow calls every 5 min")
                .isCloseTo(5.2, org.assertj.core.data.Offset.offset(0.01));
    }

    @Test
    void tagsSelectLoadBalancersInsteadOfNames() {
        Properties p = base();
        p.setProperty("aws.region", "us-east-1");
        p.setProperty("alb.tags", "team=web, env=prod");

        assertThat(read(p, null).tags()).isEqualTo(Map.of("team", "web", "env", "prod"));
    }

    @Test
    void mistakesAreRefusedNamingTheKey() {
        Properties none = base();
        none.setProperty("aws.region", "us-east-1");
        assertThatThrownBy(() -> read(none, null)).isInstanceOf(ConfigException.class).hasMessageContaining("'alb.load-balancers'");

        Properties mixed = base();
        mixed.setProperty("aws.region", "us-east-1");
        mixed.setProperty("alb.load-balancers", "web,arn:aws:elasticloadbalancing:us-east-1:1:loadbalancer/app/x/1");
        assertThatThrownBy(() -> read(mixed, null)).hasMessageContaining("'alb.load-balancers': give either ARNs or names");

        Properties noRegion = base();
        noRegion.setProperty("alb.load-balancers", "web");
        assertThatThrownBy(() -> read(noRegion, null)).hasMessageStartingWith("config key 'aws.region': is not set");

        Properties badEndpoint = base();
        badEndpoint.setProperty("aws.region", "us-east-1");
        badEndpoint.setProperty("alb.load-balancers", "web");
        badEndpoint.setProperty("aws.endpoint.elbv2", "https://user:pw@vpce.example");
        assertThatThrownBy(() -> read(badEndpoint, null)).hasMessageStartingWith("config key 'aws.endpoint.elbv2'")
                .hasMessageNotContaining("pw@");

        Properties unknown = base();
        unknown.setProperty("aws.region", "us-east-1");
        unknown.setProperty("alb.load-balancers", "web");
        unknown.setProperty("alb.healthinterval.ms", "5000");
        assertThatThrownBy(() -> read(unknown, null)).hasMessageContaining("alb.healthinterval.ms");
    }
}
