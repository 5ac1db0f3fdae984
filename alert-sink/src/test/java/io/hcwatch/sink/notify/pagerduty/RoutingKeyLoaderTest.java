package io.hcwatch.sink.notify.pagerduty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RoutingKeyLoaderTest {

    private static final String SECRET = "0123456789abcdef0123456789abcdef";

    @Test
    void readsTheKeyFromTheVariable() {
        RoutingKey key = new RoutingKeyLoader(Map.of("PAGERDUTY_ROUTING_KEY", SECRET)::get).load("PAGERDUTY_ROUTING_KEY");

        assertThat(key.reveal()).isEqualTo(SECRET);
        assertThat(key.origin()).isEqualTo("PAGERDUTY_ROUTING_KEY");
    }

    @Test
    void readsTheKeyFromTheFileNamedByTheFileVariableWithoutItsTrailingNewline(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("pd-key"), SECRET + "\n");

        RoutingKey key = new RoutingKeyLoader(Map.of("PAGERDUTY_ROUTING_KEY_FILE", file.toString())::get)
                .load("PAGERDUTY_ROUTING_KEY");

        assertThat(key.reveal()).isEqualTo(SECRET);
    }

    @Test
    void saysWhichVariableToSetWhenNeitherIsSet() {
        assertThatThrownBy(() -> new RoutingKeyLoader(Map.<String, String>of()::get).load("PD_DB_KEY"))
                .hasMessage("no PagerDuty routing key: set PD_DB_KEY or PD_DB_KEY_FILE");
    }

    @Test
    void refusesBothWithoutPrintingEither(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("pd-key"), SECRET);

        assertThatThrownBy(() -> new RoutingKeyLoader(Map.of("K", SECRET, "K_FILE", file.toString())::get).load("K"))
                .hasMessage("both K and K_FILE are set; set only one");
    }

    @Test
    void reportsAnUnreadableOrEmptyFileByPath(@TempDir Path dir) throws IOException {
        Path missing = dir.resolve("missing");
        Path empty = Files.writeString(dir.resolve("empty"), "\n");

        assertThatThrownBy(() -> new RoutingKeyLoader(Map.of("K_FILE", missing.toString())::get).load("K"))
                .hasMessage("cannot read routing key file " + missing + " (from K_FILE): NoSuchFileException");
        assertThatThrownBy(() -> new RoutingKeyLoader(Map.of("K_FILE", empty.toString())::get).load("K"))
                .hasMessageContaining("is empty");
    }

    @Test
    void aKeyPrintsOnlyWhereItCameFrom() {
        RoutingKey key = new RoutingKey(SECRET, "PAGERDUTY_ROUTING_KEY");

        assertThat(key.toString()).isEqualTo("RoutingKey[from PAGERDUTY_ROUTING_KEY]");
        assertThat(key.redact("bad key " + SECRET)).isEqualTo("bad key [routing key from PAGERDUTY_ROUTING_KEY]");
    }
}
