package io.hcwatch.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.TestAbortedException;

class PeerFixturesTest {

    @TempDir
    Path dir;

    @Test
    void absentFixturesSkipWithThePathAndTheSwitchNamed() {
        Path missing = dir.resolve("peer-logs");
        assertThatThrownBy(() -> PeerFixtures.requireFolder(missing, null))
                .isInstanceOf(TestAbortedException.class)
                .hasMessageContaining(missing.toString())
                .hasMessageContaining("HCWATCH_REQUIRE_FIXTURES");
    }

    @Test
    void absentFixturesFailWhenRequired() {
        Path missing = dir.resolve("peer-logs");
        assertThatThrownBy(() -> PeerFixtures.requireFolder(missing, "1"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining(missing.toString());
    }

    @Test
    void presentFixturesAreReturned() {
        assertThat(PeerFixtures.requireFolder(dir, "1")).isEqualTo(dir);
        assertThat(PeerFixtures.requireFolder(dir, null)).isEqualTo(dir);
    }
}
