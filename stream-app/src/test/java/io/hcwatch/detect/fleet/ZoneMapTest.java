package io.hcwatch.detect.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.LbConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which zone a target named in a raw ALB log line is in, by the target map or by the subnet CIDRs of a hand-written LbConfig. */
class ZoneMapTest {

    private static final Map<String, String> TARGETS = Map.of(
            "i-0abc", "us-east-1a", "10.0.1.5:8080", "us-east-1a", "10.0.2.7", "us-east-1b");
    private static final Map<String, List<String>> CIDRS = Map.of(
            "us-east-1a", List.of("10.0.1.0/24", "2001:db8:0:1::/64"),
            "us-east-1b", List.of("10.0.2.0/23"),
            "us-east-1c", List.of("10.0.3.128/25"));

    @ParameterizedTest(name = "{0} at {1}:{2} -> {3} ({4})")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # id             | ip               | port | zone       | why
            i-0abc           | -                | 8080 | us-east-1a | by id
            10.0.1.5:8080    | 10.0.1.5         | 8080 | us-east-1a | by ip:port
            10.0.2.7:9000    | 10.0.2.7         | 9000 | us-east-1b | by address alone
            10.0.1.200:80    | 10.0.1.200       | 80   | us-east-1a | not in the map: 10.0.1.0/24
            10.0.3.1:80      | 10.0.3.1         | 80   | us-east-1b | 10.0.2.0/23 reaches 10.0.3.255
            10.0.3.129:80    | 10.0.3.129       | 80   | us-east-1c | 10.0.3.128/25 is more specific than 10.0.2.0/23
            10.0.4.1:80      | 10.0.4.1         | 80   | -          | in no subnet
            x:80             | 2001:db8:0:1::9  | 80   | us-east-1a | IPv6 in 2001:db8:0:1::/64
            x:80             | 2001:db8:0:2::9  | 80   | -          | IPv6 outside
            lambda           | -                | -    | -          | no address, not in the map
            web-1:80         | web-1            | 80   | -          | a name is never looked up
            """)
    void placesATargetByTheMapThenByItsSubnet(String id, String ip, Integer port, String zone, String why) {
        ZoneMap zones = new ZoneMap();
        zones.configure(config(TARGETS, CIDRS));
        assertThat(zones.zoneOf(id, ip, port)).as(why).isEqualTo(zone);
    }

    @Test
    void theLatestConfigReplacesTheMapSoATargetItNoLongerNamesHasNoZoneFromIt() {
        ZoneMap zones = new ZoneMap();
        zones.configure(config(TARGETS, CIDRS));
        zones.configure(config(Map.of("10.0.9.9:80", "us-east-1c"), null));
        assertThat(zones.zoneOf("10.0.1.5:8080", "10.0.1.5", 8080)).isNull();
        assertThat(zones.zoneOf("10.0.9.9:80", "10.0.9.9", 80)).isEqualTo("us-east-1c");
    }

    // RFC 4291 2.5.5.2: ::ffff:0:0/96 holds the IPv4-mapped addresses, and Java reads such a network as an IPv4 address
    @Test
    void anIpv4MappedNetworkWithItsIpv6PrefixPlacesTheIpv4AddressesItHolds() {
        ZoneMap zones = new ZoneMap();
        zones.configure(config(null, Map.of("us-east-1a", List.of("::ffff:10.0.1.0/120"), "us-east-1b", List.of("::ffff:0:0/96"))));

        assertThat(zones.zoneOf("x:80", "10.0.1.9", 80)).isEqualTo("us-east-1a");
        assertThat(zones.zoneOf("x:80", "10.0.1.0", 80)).as("all four bytes the network's").isEqualTo("us-east-1a");
        assertThat(zones.zoneOf("x:80", "192.0.2.1", 80)).isEqualTo("us-east-1b");
        assertThat(zones.zoneOf("x:80", "2001:db8::1", 80)).isNull();
    }

    static LbConfig config(Map<String, String> targets, Map<String, List<String>> cidrs) {
        return Checks.lbConfig(Fleet.TG, Checks.T0).setTargetZones(targets == null ? null : Map.copyOf(targets))
                .setZoneCidrs(cidrs == null ? null : Map.copyOf(cidrs)).build();
    }
}
