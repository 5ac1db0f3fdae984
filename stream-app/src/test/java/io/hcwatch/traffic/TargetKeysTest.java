package io.hcwatch.traffic;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TargetKeysTest {

    private final TargetKeys keys = new TargetKeys();

    @Test
    void aTargetsKeyIsItsAddressAndPortAndTheSameStringWhileItRecurs() {
        String key = keys.of("10.0.1.7", 8080);
        assertThat(key).isEqualTo("10.0.1.7:8080");
        assertThat(keys.of(new String("10.0.1.7"), 8080)).isSameAs(key);
        assertThat(keys.of("10.0.1.7", 8081)).isEqualTo("10.0.1.7:8081");
        assertThat(keys.of("2001:db8::1", 443)).isEqualTo("2001:db8::1:443");
    }

    @Test
    void addressesOnTheSameEntryEachGetTheirOwnKey() {
        assertThat("Aa".hashCode()).isEqualTo("BB".hashCode());
        assertThat(keys.of("Aa", 80)).isEqualTo("Aa:80");
        assertThat(keys.of("BB", 80)).isEqualTo("BB:80");
        assertThat(keys.of("Aa", 80)).isEqualTo("Aa:80");
    }
}
