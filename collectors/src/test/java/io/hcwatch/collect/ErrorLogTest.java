package io.hcwatch.collect;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

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

    /** The lines a logger is given, formatted as SLF4J formats them. */
    private static final class Lines extends LegacyAbstractLogger {
        private static final long serialVersionUID = 1L;
        final List<String> written = new CopyOnWriteArrayList<>();

        @Override
        protected String getFullyQualifiedCallerName() {
            return null;
        }

        @Override
        protected void handleNormalizedLoggingCall(Level level, Marker marker, String pattern, Object[] args, Throwable t) {
            written.add(MessageFormatter.basicArrayFormat(pattern, args));
        }

        @Override
        public boolean isTraceEnabled() {
            return true;
        }

        @Override
        public boolean isDebugEnabled() {
            return true;
        }

        @Override
        public boolean isInfoEnabled() {
            return true;
        }

        @Override
        public boolean isWarnEnabled() {
            return true;
        }

        @Override
        public boolean isErrorEnabled() {
            return true;
        }
    }

    // a target group, host or object key is whatever its owner named it: it must not start a line of its own
    @Test
    void namesFromInputAreWrittenEscapedOnOneLine() {
        Lines lines = new Lines();
        ErrorLog escaped = new ErrorLog(lines, Duration.ofMinutes(1), now::get);

        escaped.failure("alb target group web\n2026-12-02 ERROR forged", "timeout", "s3://b/k\u001b[2J", " (attempt 1)");
        escaped.recovered("alb target group web\n2026-12-02 ERROR forged");

        assertThat(lines.written).containsExactly(
                "alb target group web\\n2026-12-02 ERROR forged: timeout: s3://b/k\\u001b[2J (attempt 1)",
                "alb target group web\\n2026-12-02 ERROR forged: working again after 1 failed attempts");
    }
}
