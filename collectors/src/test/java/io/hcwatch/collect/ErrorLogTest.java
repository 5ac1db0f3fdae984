package io.hcwatch.collect;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class ErrorLogTest {

    private final AtomicLong now = new AtomicLong();
    private final ErrorLog log = new ErrorLog(LoggerFactory.getLogger(ErrorLogTest.class), Duration.ofMinutes(1), now::get);

    @Test
    void theSameFailureIsLoggedOncePerIntervalWhateverItsDetail() {
        assertThat(log.failure("web1", "unreachable", "no such file", " (attempt 1)")).isTrue();
        assertThat(log.failure("web1", "unreachable", "no such file", " (attempt 2)")).isFalse();
        now.addAndGet(Duration.ofSeconds(61).toNanos());
        assertThat(log.failure("web1", "unreachable", "no such file", " (attempt 9)")).isTrue();
    }

    @Test
    void aDifferentFailureOrSourceIsLoggedAtOnce() {
        assertThat(log.failure("web1", "unreachable", "no such file", "")).isTrue();
        assertThat(log.failure("web1", "truncated", "line 7 has 3 fields", "")).isTrue();
        assertThat(log.failure("web2", "truncated", "line 7 has 3 fields", "")).isTrue();
    }

    @Test
    void afterARecoveryTheSameFailureIsNewAgain() {
        log.failure("web1", "unreachable", "no such file", "");
        log.recovered("web1");

        assertThat(log.failure("web1", "unreachable", "no such file", "")).isTrue();
    }
}
