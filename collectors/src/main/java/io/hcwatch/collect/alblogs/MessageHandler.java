package io.hcwatch.collect.alblogs;

import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.collect.CollectorMetrics;
import io.hcwatch.collect.ErrorLog;
import io.hcwatch.collect.Publisher;
import io.hcwatch.collect.aws.AwsFailure;
import io.hcwatch.observability.LogText;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.zip.ZipException;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * One queue message: every log object its event names, each line to its topic keyed by the
 * object's key (so an object's lines share a partition and keep their order), then the answer
 * whether the message may be deleted. It may only when every line of every object was
 * acknowledged by Kafka, or the object was dead-lettered (and that acknowledged), or skipped. An
 * object already completed (the completion log) is not produced again.
 */
final class MessageHandler {

    private static final Logger LOG = LoggerFactory.getLogger(MessageHandler.class);

    enum Result { DELETE, RETRY }

    private final S3Client s3;
    private final Producer<String, byte[]> producer;
    private final Publisher publisher;
    private final AlbLogsConfig config;
    private final CompletionLog completions;
    private final CollectorMetrics metrics;
    private final ErrorLog errors;
    private final Supplier<AwsCredentials> credentials;
    private final Clock clock;
    private final AttemptLedger attempts = new AttemptLedger(10_000);

    MessageHandler(S3Client s3, Publisher publisher, AlbLogsConfig config, CompletionLog completions, CollectorMetrics metrics,
                   ErrorLog errors, Supplier<AwsCredentials> credentials, Clock clock) {
        this.s3 = s3;
        this.producer = publisher.producer();
        this.publisher = publisher;
        this.config = config;
        this.completions = completions;
        this.metrics = metrics;
        this.errors = errors;
        this.credentials = credentials;
        this.clock = clock;
    }

    Result handle(Message message) {
        S3Event event;
        try {
            event = S3Event.parse(message.body());
        } catch (S3Event.NotAnEvent e) {
            metrics.message("not_an_event");
            LOG.warn("alb-logs: message {} is not an S3 event notification ({}); dead-lettering and deleting it",
                    message.messageId(), LogText.of(e.getMessage()));
            return deadLetter("alb", null, "sqs message " + message.messageId(), "not_an_event", e.getMessage(),
                    message.body().getBytes(StandardCharsets.UTF_8), null) ? Result.DELETE : Result.RETRY;
        }
        if (event.kind() == S3Event.Kind.TEST) {
            metrics.message("test_event");
            LOG.info("alb-logs: s3:TestEvent received (the bucket notification reaches the queue); deleting it");
            return Result.DELETE;
        }
        if (event.kind() == S3Event.Kind.OTHER) {
            metrics.message("ignored");
            return Result.DELETE;
        }
        for (S3Event.ObjectRef ref : event.created()) {
            if (!ship(ref)) {
                return Result.RETRY;
            }
        }
        return Result.DELETE;
    }

    /** @return whether the object is done with (delivered, dead-lettered, skipped or a duplicate) */
    private boolean ship(S3Event.ObjectRef ref) {
        KeyRouter.Route route = config.router().route(ref.key());
        if (route == null) {
            metrics.object("skipped");
            LOG.debug("alb-logs: {} matches neither alb-logs.route.access nor alb-logs.route.health; skipped",
                    LogText.of(ref.uri()));
            return true;
        }
        if (completions.contains(ref.id())) {
            metrics.object("duplicate");
            LOG.info("alb-logs: {} was delivered already (completion log); not producing it again", LogText.of(ref.uri()));
            return true;
        }
        Target target = route == KeyRouter.Route.HEALTH ? new Target(config.healthTopic(), "alb-health")
                : new Target(config.accessTopic(), "alb");
        AttemptLedger.Failures earlier = attempts.of(ref.id());
        if (earlier.count() >= config.limits().maxAttempts()) {
            // the dead letter of the last attempt was not acknowledged
            return tooManyAttempts(ref, target, earlier);
        }
        try {
            return transfer(ref, target);
        } catch (RuntimeException | LinkageError | AssertionError e) {
            LOG.error("alb-logs: internal error on {}", LogText.of(ref.uri()), e);
            return failedByObject(ref, target, "internal error: " + e);
        }
    }

    private record Target(String topic, String source) {
    }

    private boolean transfer(S3Event.ObjectRef ref, Target target) {
        long start = System.nanoTime();
        AtomicReference<Exception> failed = new AtomicReference<>();
        AtomicLong sent = new AtomicLong();
        byte[] whole = null;
        try {
            metrics.apiCall("GetObject");
            try (ResponseInputStream<GetObjectResponse> object = s3.getObject(b -> b.bucket(ref.bucket()).key(ref.key())
                    .versionId(ref.versionId() == null || ref.versionId().isEmpty() ? null : ref.versionId()))) {
                InputStream lines = object;
                Long size = object.response().contentLength();
                if (size != null && size > config.limits().maxObjectBytes()) {
                    object.abort();
                    String error = size + " bytes as stored, over " + ObjectLimits.OBJECT_KEY + " (" + (config.limits()
                            .maxObjectBytes() >> 20) + " MiB); not read";
                    errors.failure("alb-logs object", "object_too_large", ref.uri() + ": " + error, "");
                    return deadLetter(target.source(), target.topic(), ref.uri(), "object_too_large", error, null, ref);
                }
                if (size != null && size <= config.maxRawBytes()) {
                    // small enough to keep: a dead letter then carries the object itself
                    whole = object.readAllBytes();
                    lines = new ByteArrayInputStream(whole);
                }
                try {
                    LogLines.read(lines, config.limits(), new LineSender(ref, target, failed, sent));
                } catch (LogLines.LimitExceeded e) {
                    object.abort();
                    throw e;
                }
            }
        } catch (SdkException e) {
            AwsFailure f = AwsFailure.of(e, credentials);
            metrics.apiFailed("GetObject", f.reason());
            if (f.reason().equals("not_found") || f.reason().equals("access_denied")) {
                errors.failure("alb-logs object", "s3_" + f.reason(), ref.uri() + ": " + f.message(), "");
                return deadLetter(target.source(), target.topic(), ref.uri(), "s3_" + f.reason(), f.message(), null, ref);
            }
            errors.failure("alb-logs object", "s3_" + f.reason(), ref.uri() + ": " + f.message(), " (left for redelivery)");
            return retried();
        } catch (LogLines.LimitExceeded e) {
            return unreadable(ref, target, e.reason, e.getMessage() + " after " + sent.get() + " lines; the rest is not read",
                    whole, failed);
        } catch (ZipException | EOFException e) {
            return unreadable(ref, target, "bad_gzip", "not a readable gzip file after " + sent.get() + " lines: "
                    + e.getMessage(), whole, failed);
        } catch (IOException e) {
            errors.failure("alb-logs object", "s3_io_error", ref.uri() + ": " + e, " (left for redelivery)");
            return retried();
        } catch (KafkaException e) {
            failed.compareAndSet(null, e);
        }
        producer.flush();
        if (failed.get() != null) {
            return publishFailed(ref, target, failed.get());
        }
        attempts.forget(ref.id());
        metrics.lines(target.topic(), sent.get());
        metrics.published(target.topic(), System.nanoTime() - start);
        return complete(ref, "delivered");
    }

    /** Each line to the route's topic, a line over the limit to the DLQ; stops at the first failed send. */
    private final class LineSender implements LogLines.Sink {
        private final S3Event.ObjectRef ref;
        private final Target target;
        private final AtomicReference<Exception> failed;
        private final AtomicLong sent;

        LineSender(S3Event.ObjectRef ref, Target target, AtomicReference<Exception> failed, AtomicLong sent) {
            this.ref = ref;
            this.target = target;
            this.failed = failed;
            this.sent = sent;
        }

        @Override
        public void line(byte[] line) {
            stopIfFailed();
            sent.incrementAndGet();
            producer.send(new ProducerRecord<>(target.topic(), null, null, ref.key(), line), (meta, error) -> {
                if (error != null) {
                    failed.compareAndSet(null, error);
                }
            });
        }

        @Override
        public void oversized(long number, byte[] head, long length) {
            stopIfFailed();
            byte[] kept = head.length <= config.maxRawBytes() ? head : Arrays.copyOf(head, config.maxRawBytes());
            String error = "line " + number + " is " + length + " bytes, over " + ObjectLimits.LINE_KEY + " ("
                    + config.limits().maxLineBytes() + "); raw holds its first " + kept.length + " bytes";
            errors.failure("alb-logs line", "line_too_long", ref.uri() + ": " + error, "");
            metrics.lineDeadLettered(target.topic());
            publisher.publish(config.dlqTopic(), ref.uri(), letter(target.source(), target.topic(), ref.uri(), "line_too_long",
                    error, kept, ref), clock.millis(), System.nanoTime(),
                    () -> failed.compareAndSet(null, new KafkaException("the dead letter of line " + number + " was not delivered")));
        }

        private void stopIfFailed() {
            if (failed.get() != null) {
                // Kafka refused a record already: the rest would wait max.block.ms each, to be redone anyway
                throw new KafkaException("stopped after a failed send", failed.get());
            }
        }
    }

    /** An object read up to a point it cannot be read past: dead-lettered once what was sent of it is acknowledged. */
    private boolean unreadable(S3Event.ObjectRef ref, Target target, String reason, String error, byte[] whole,
                               AtomicReference<Exception> failed) {
        producer.flush();
        if (failed.get() != null) {
            return publishFailed(ref, target, failed.get());
        }
        errors.failure("alb-logs object", reason, ref.uri() + ": " + error, "");
        return deadLetter(target.source(), target.topic(), ref.uri(), reason, error, whole, ref);
    }

    private boolean publishFailed(S3Event.ObjectRef ref, Target target, Exception failure) {
        String error = failure.getClass().getSimpleName() + ": " + failure.getMessage();
        metrics.publishFailed(target.topic(), "delivery");
        if (refusesTheRecord(failure)) {
            // no later attempt can do better: the broker refuses what the object holds
            return failedByObject(ref, target, error);
        }
        errors.failure("alb-logs publish", "delivery", ref.uri() + ": " + error,
                " (the message stays in the queue; the object is produced again from its start)");
        return retried();
    }

    private static boolean refusesTheRecord(Exception failure) {
        return failure instanceof RecordTooLargeException || failure instanceof RecordBatchTooLargeException
                || failure instanceof InvalidRecordException;
    }

    /** A failure the object itself causes: retried until it has failed {@code alb-logs.max-attempts} times. */
    private boolean failedByObject(S3Event.ObjectRef ref, Target target, String error) {
        AttemptLedger.Failures failures = attempts.failed(ref.id(), error);
        if (failures.count() >= config.limits().maxAttempts()) {
            return tooManyAttempts(ref, target, failures);
        }
        errors.failure("alb-logs object", "object_failed", ref.uri() + ": " + error, " (attempt " + failures.count() + " of "
                + config.limits().maxAttempts() + "; the message stays in the queue)");
        return retried();
    }

    private boolean tooManyAttempts(S3Event.ObjectRef ref, Target target, AttemptLedger.Failures failures) {
        String error = "failed " + failures.count() + " times (" + ObjectLimits.ATTEMPTS_KEY + "); the last: " + failures.last();
        errors.failure("alb-logs object", "too_many_attempts", ref.uri() + ": " + error, "");
        boolean done = deadLetter(target.source(), target.topic(), ref.uri(), "too_many_attempts", error, null, ref);
        if (done) {
            attempts.forget(ref.id());
        }
        return done;
    }

    private boolean retried() {
        metrics.object("retried");
        return false;
    }

    private boolean complete(S3Event.ObjectRef ref, String outcome) {
        try {
            completions.add(ref.id());
        } catch (IOException e) {
            // the lines are in Kafka; without the record a redelivery would produce them twice, so say so
            LOG.warn("alb-logs: {} delivered but its completion could not be recorded ({}); a redelivery would repeat it",
                    LogText.of(ref.uri()), e.toString());
        }
        metrics.object(outcome);
        return true;
    }

    /** A DeadLetter to the DLQ topic, waited for: only an acknowledged one lets the message go. */
    private boolean deadLetter(String source, String topic, String where, String reason, String error, byte[] raw,
                               S3Event.ObjectRef ref) {
        AtomicReference<Boolean> failed = new AtomicReference<>(false);
        publisher.publish(config.dlqTopic(), where, letter(source, topic, where, reason, error, raw, ref), clock.millis(),
                System.nanoTime(), () -> failed.set(true));
        producer.flush();
        if (failed.get()) {
            return retried();
        }
        LOG.warn("alb-logs: {} dead-lettered to {} ({}: {})", LogText.of(where), config.dlqTopic(), reason, LogText.of(error));
        return ref == null || complete(ref, "dead_lettered");
    }

    private DeadLetter letter(String source, String topic, String where, String reason, String error, byte[] raw,
                              S3Event.ObjectRef ref) {
        return DeadLetter.newBuilder().setSource(source).setTopic(topic).setInputTimestamp(eventTime(ref))
                .setReason(reason).setError(where + ": " + error)
                .setRaw(raw == null || raw.length > config.maxRawBytes() ? null : ByteBuffer.wrap(raw))
                .setDeadLetteredAt(clock.instant()).build();
    }

    private static Instant eventTime(S3Event.ObjectRef ref) {
        if (ref == null || ref.eventTime() == null) {
            return null;
        }
        try {
            return Instant.parse(ref.eventTime());
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
