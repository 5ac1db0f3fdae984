package io.hcwatch.traffic;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ClientKeysTest {

    @ParameterizedTest
    @CsvSource({
            "192.0.2.10, 192.0.2.10",
            "2001:db8:1:2:aaaa:bbbb:cccc:dddd, 2001:db8:1:2::/64",
            "2001:db8:1:2::1, 2001:db8:1:2::/64",
            "2001:0db8:0001:0002:0000:0000:0000:0001, 2001:db8:1:2::/64",
            "2001:db8::1, 2001:db8::/64",
            "fe80::1%eth0, fe80::/64",
            "::1, ::/64",
            "not-an-ip, not-an-ip",
            "::ffff:192.0.2.1, ::ffff:192.0.2.1"})
    void countsIpv4AsItselfAndIpv6ByItsSlash64(String ip, String key) {
        assertThat(ClientKeys.client(ip)).isEqualTo(key);
    }

    @ParameterizedTest
    @CsvSource({
            "GET, https://api.example.com:443/v1/devices/6f1c2d9e-1b2a-4c3d-9e8f-0a1b2c3d4e5f/ping?x=1, GET /v1/devices/6f1c2d9e-1b2a-4c3d-9e8f-0a1b2c3d4e5f/ping",
            "POST, /login, POST /login",
            "GET, http://example.com, GET /",
            ", http://example.com/a?b, /a",
            "GET, /go?to=http://other.example/x, GET /go",
            "GET, /search?q=a, GET /search"})
    void requestKeyIsMethodAndPathWithoutQuery(String method, String url, String key) {
        assertThat(ClientKeys.request(method, url)).isEqualTo(key);
    }
}
