package io.hcwatch.topology;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Log lines that name no host belong to the one HAProxy host the collector names, and to none when it names several. */
class HaproxyHostsTest {

    private final HaproxyHosts hosts = new HaproxyHosts();

    @Test
    void noHostNoneOrLocalhostNamesNoMachine() {
        assertThat(HaproxyHosts.unnamed(null)).isTrue();
        assertThat(HaproxyHosts.unnamed("localhost")).as("HAProxy's ring writes it; rsyslog stamps it on UDP from 127.0.0.1").isTrue();
        assertThat(HaproxyHosts.unnamed("web1")).isFalse();
    }

    @Test
    void withOneCollectorHostUnnamedLinesAreItsWithNoneOrSeveralTheyStayUnplaced() {
        assertThat(hosts.forUnnamed()).as("no collector yet").isNull();
        hosts.named("web1");
        hosts.named("web1");
        assertThat(hosts.forUnnamed()).isEqualTo("web1");
        hosts.named("web2");
        assertThat(hosts.forUnnamed()).as("two hosts: a line naming none could be either's").isNull();
    }

    @Test
    void blankNamesAreNotHosts() {
        hosts.named(null);
        hosts.named(" ");
        assertThat(hosts.forUnnamed()).isNull();
    }
}
