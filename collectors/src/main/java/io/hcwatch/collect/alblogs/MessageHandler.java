package io.hcwatch.collect.alblogs;

import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.collect.CollectorMetrics;
import io.hcwatch.collect.ErrorLog;
import io.hcwatch.collect.Publisher;
import io.hcwatch.collect.aws.AwsFailure;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.zip.ZipException;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
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
                    message.messageId(), e.getMessage());
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
            LOG.debug("alb-logs: {} matches neither alb-logs.route.access nor alb-logs.route.health; skipped", ref.uri());
            return true;
        }
        if (completions.contains(ref.id())) {
            metrics.object("duplicate");
            LOG.info("alb-logs: {} was delivered already (completion log); not producing it again", ref.uri());
            return true;
        }
        String topic = route == KeyRouter.Route.HEALTH ? config.healthTopic() : config.accessTopic();
        String source = route == KeyRouter.Route.HEALTH ? "alb-health" : "alb";
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
                if (size != null && size <= config.maxRawBytes()) {
                    // small enough to keep: a dead letter then carries the object itself
                    whole = object.readAllBytes();
                    lines = new ByteArrayInputStream(whole);
                }
                LogLines.read(lines, line -> {
                    if (failed.get() != null) {
                        // Kafka refused a line already: the rest would wait max.block.ms each, to be redone anyway
                        throw new KafkaException("stopped after a failed send", failed.get());
                    }
                    sent.incrementAndGet();
                    producer.send(new ProducerRecord<>(topic, null, null, ref.key(), line), (meta, error) -> {
                        if (error != null) {
                            failed.compareAndSet(null, error);
                        }
                    });
                });
            }
        } catch (SdkException e) {
            AwsFailure f = AwsFailure.of(e, credentials);
            metrics.apiFailed("GetObject", f.reason());
            if (f.reason().equals("not_found") || f.reason().equals("access_denied")) {
                errors.failure("alb-logs object", "s3_" + f.reason(), ref.uri() + ": " + f.message(), "");
                return deadLetter(source, topic, ref.uri(), "s3_" + f.reason(), f.message(), null, ref);
            }
            errors.failure("alb-logs object", "s3_" + f.reason(), ref.uri() + ": " + f.message(), " (left for redelivery)");
            return retried();
        } catch (ZipException | EOFException e) {
            producer.flush();
            String error = "not a readable gzip file after " + sent.get() + " lines: " + e.getMessage();
            errors.failure("alb-logs object", "bad_gzip", ref.uri() + ": " + error, "");
            return deadLetter(source, topic, ref.uri(), "bad_gzip", error, whole, ref);
        } catch (IOException e) {
            errors.failure("alb-logs object", "s3_io_error", ref.uri() + ": " + e, " (left for redelivery)");
            return retried();
        } catch (KafkaException e) {
            failed.compareAndSet(null, e);
        }
        producer.flush();
        if (failed.get() != null) {
            errors.failure("alb-logs publish", "delivery", ref.uri() + ": " + failed.get().getClass().getSimpleName() + ": "
                    + failed.get().getMessage(), " (the message stays in the queue; the object is produced again from its start)");
            metrics.publishFailed(topic, "delivery");
            return retried();
        }
        metrics.lines(topic, sent.get());
        metrics.published(topic, System.nanoTime() - start);
        return complete(ref, "delivered");
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
                    ref.uri(), e.toString());
        }
        metrics.object(outcome);
        return true;
    }

    /** A DeadLetter to the DLQ topic, waited for: only an acknowledged one lets the message go. */
    private boolean deadLetter(String source, String topic, String where, String reason, String error, byte[] raw,
                               S3Event.ObjectRef ref) {
        AtomicReference<Boolean> failed = new AtomicReference<>(false);
        DeadLetter letter = DeadLetter.newBuilder().setSource(source).setTopic(topic).setInputTimestamp(eventTime(ref))
                .setReason(reason).setError(where + ": " + error)
                .setRaw(raw == null || raw.length > config.maxRawBytes() ? null : ByteBuffer.wrap(raw))
                .setDeadLetteredAt(clock.instant()).build();
        publisher.publish(config.dlqTopic(), where, letter, clock.millis(), System.nanoTime(), () -> failed.set(true));
        producer.flush();
        if (failed.get()) {
            return retried();
        }
        LOG.warn("alb-logs: {} dead-lettered to {} ({}: {})", where, config.dlqTopic(), reason, error);
        return ref == null || complete(ref, "dead_lettered");
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
