package io.hcwatch.testsupport;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

class ExternalToolTest {

    @Test
    void aMissingToolSkipsTheTestWithWhatToInstallWhenItIsNotRequired() {
        assertThatThrownBy(() -> ExternalTool.require("hcwatch-no-such-tool", "HCWATCH_TEST_NEVER_SET", "apt-get install nothing"))
                .isInstanceOf(TestAbortedException.class)
                .hasMessageContaining("SKIPPED: 'hcwatch-no-such-tool' is not on PATH (apt-get install nothing)")
                .hasMessageContaining("set HCWATCH_TEST_NEVER_SET=1 to make this a failure");
    }
}
