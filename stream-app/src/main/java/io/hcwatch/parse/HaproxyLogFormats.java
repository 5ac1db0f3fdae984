package io.hcwatch.parse;

import java.util.List;

/**
 * Which log-format each HAProxy frontend writes its traffic lines in: what the HAProxy parser asks
 * before it falls back to the built-in formats. Declared in the stream app's settings
 * ({@link DeclaredLogFormats}); formats the collector reads from haproxy.cfg can answer the same
 * questions.
 */
public interface HaproxyLogFormats {

    /**
     * @param host the HAProxy host the line came from, when its prefix names one (null otherwise)
     * @return the format {@code frontend}'s lines are written in, or null when none is declared
     *         (the built-in httplog, tcplog and error formats then apply)
     */
    LogFormat forFrontend(String host, String frontend);

    /** Every declared format, each once, in the order a line is tried against them. */
    List<LogFormat> declared();

    /** Only the built-in formats. */
    static HaproxyLogFormats none() {
        return DeclaredLogFormats.NONE;
    }
}
