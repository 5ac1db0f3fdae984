package io.hcwatch.parse;

import java.util.Objects;
import java.util.function.Function;

/**
 * What a parser made of one input: a record, a rejection with its reason, or a recognised line
 * that carries no telemetry (e.g. HAProxy's "Proxy fe started."). Parsers never throw on bad
 * input; the topology routes rejections to the dead-letter topic and counts every outcome.
 */
public sealed interface ParseResult<T> {

    static <T> ParseResult<T> ok(T value) {
        return new Ok<>(Objects.requireNonNull(value));
    }

    /**
     * @param reason a short category from a fixed set (a metric tag), e.g. {@code field_count}
     * @param error  the precise message: which field, what it held, what was expected
     */
    static <T> ParseResult<T> rejected(String reason, String error) {
        return new Rejected<>(reason, error);
    }

    /** A known line with nothing to measure; {@code kind} is a short, bounded label. */
    static <T> ParseResult<T> skipped(String kind) {
        return new Skipped<>(kind);
    }

    default boolean isOk() {
        return this instanceof Ok;
    }

    /** Transforms the value of an {@code Ok}, keeps rejections and skips as they are. */
    @SuppressWarnings("unchecked")
    default <R> ParseResult<R> map(Function<? super T, ? extends R> f) {
        if (this instanceof Ok<T> ok) {
            return new Ok<>(f.apply(ok.value()));
        }
        return (ParseResult<R>) this;
    }

    record Ok<T>(T value) implements ParseResult<T> {
    }

    /**
     * @param identity whose health check it was, when a rejected health check still names its target
     *                 group and target (null otherwise)
     */
    record Rejected<T>(String reason, String error, TargetIdentity identity) implements ParseResult<T> {
        public Rejected {
            Objects.requireNonNull(reason);
            Objects.requireNonNull(error);
        }

        public Rejected(String reason, String error) {
            this(reason, error, null);
        }

        public Rejected<T> naming(TargetIdentity id) {
            return new Rejected<>(reason, error, id);
        }
    }

    record Skipped<T>(String kind) implements ParseResult<T> {
    }
}
