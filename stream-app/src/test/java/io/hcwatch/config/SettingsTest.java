package io.hcwatch.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SettingsTest {

    @Test
    void everyDefaultParsesAndOverridesReplaceIt() {
        Settings s = Settings.defaults().with(Map.of("correlated.min-fraction", "0.2", "window.grace", "45s"));
        assertThat(s.number("correlated.min-fraction")).isEqualTo(0.2);
        assertThat(s.duration("window.grace")).isEqualTo(Duration.ofSeconds(45));
        assertThat(s.integer("correlated.min-targets")).isEqualTo(3);
    }

    @Test
    void unknownKeysAndIllTypedValuesAreRefusedWithOneLine() {
        assertThatThrownBy(() -> Settings.defaults().with(Map.of("correlated.min-fractoin", "0.2")))
                .hasMessage("unknown setting 'correlated.min-fractoin' (the README lists every setting)");
        assertThatThrownBy(() -> Settings.defaults().with(Map.of("correlated.min-fraction", "1.5")))
                .hasMessageContaining("between 0 and 1");
        assertThatThrownBy(() -> Settings.defaults().with(Map.of("window.grace", "soon")))
                .hasMessageContaining("a duration like");
    }

    @Test
    void durationsTakeUnitsAndIso() {
        assertThat(Setting.parseDuration("250ms")).isEqualTo(Duration.ofMillis(250));
        assertThat(Setting.parseDuration("1.5m")).isEqualTo(Duration.ofSeconds(90));
        assertThat(Setting.parseDuration("PT2H")).isEqualTo(Duration.ofHours(2));
    }

    @Test
    void theReadmeListsEverySettingWithItsDefault() throws Exception {
        Path readme = Paths.get("..", "README.md");
        String text = Files.readString(readme, StandardCharsets.UTF_8);
        assertThat(text).as("README.md must contain the table printed by SettingsTable").contains(SettingsTable.markdown());
    }
}
