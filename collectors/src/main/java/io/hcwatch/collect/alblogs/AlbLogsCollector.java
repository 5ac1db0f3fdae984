package io.hcwatch.collect.alblogs;

import io.hcwatch.collect.CollectorMetrics;
import io.hcwatch.collect.Collector;
import io.hcwatch.collect.CollectorServices;
import io.hcwatch.collect.ErrorLog;
import io.hcwatch.collect.Publisher;
import io.hcwatch.collect.aws.AwsFailure;
import io.hcwatch.collect.aws.AwsSettings;
import io.hcwatch.retry.ExponentialBackoff;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * The ALB log collector: long-polls the queue that S3 notifies of new log objects, ships each
 * object's lines to Kafka (MessageHandler) and deletes a message only once all of it is
 * acknowledged; a message that could not be finished is made visible again after
 * {@code alb-logs.retry.visibility.seconds}, and the next receive waits a backoff.
 */
public final class AlbLogsCollector implements Collector, Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(AlbLogsCollector.class);

    private final AlbLogsConfig config;
    private final AwsCredentialsProvider credentials;
    private final CollectorServices services = new CollectorServices();
    private final CollectorMetrics metrics = services.metrics();
    private final ErrorLog errors = new ErrorLog(LoggerFactory.getLogger(AlbLogsCollector.class), Duration.ofMinutes(1),
            System::nanoTime);
    private SqsClient sqs;
    private S3Client s3;
    private CompletionLog completions;
    private MessageHandler handler;
    private ExponentialBackoff backoff;
    private Thread thread;
    private volatile boolean stopped;

    AlbLogsCollector(AlbLogsConfig config, AwsCredentialsProvider credentials) {
        this.config = config;
        this.credentials = credentials;
    }

    public synchronized void start() {
        Publisher publisher = services.startPublishing(config.publish(), "hcwatch-collect-alb-logs", this::isReady);
        AwsSettings aws = config.aws();
        Duration longPoll = Duration.ofSeconds(config.waitSeconds());
        sqs = aws.configure(SqsClient.builder().httpClient(aws.httpClient(longPoll)), "sqs", credentials, true, longPoll).build();
        s3 = aws.configure(S3Client.builder().httpClient(aws.httpClient(Duration.ZERO)).forcePathStyle(config.s3PathStyle()),
                "s3", credentials, true, Duration.ZERO).build();
        completions = new CompletionLog(config.stateFile(), config.stateRetention().toMillis(), System::currentTimeMillis);
        handler = new MessageHandler(s3, publisher, config, completions, metrics, errors, credentials::resolveCredentials,
                Clock.systemUTC());
        backoff = new ExponentialBackoff(config.backoffInitial(), config.backoffMax());
        metrics.hostKnown(config.queueName());
        metrics.objectsKnown();
        List.of(config.accessTopic(), config.healthTopic()).forEach(metrics::deadLetteredLinesKnown);
        List.of(config.accessTopic(), config.healthTopic(), config.dlqTopic()).forEach(metrics::topicKnown);
        thread = new Thread(this, "hcwatch-collect-alb-logs");
        thread.setDaemon(true);
        thread.start();
        LOG.info("alb-logs: queue {} (region {}), {} objects completed in the last {} h ({}), long polling {} s",
                config.queueUrl(), aws.region(), completions.size(), config.stateRetention().toHours(), config.stateFile(),
                config.waitSeconds());
        services.serveEndpoints(config.publish(), this::isReady);
    }

    @Override
    public void run() {
        int failures = 0;
        while (!stopped) {
            List<Message> messages;
            long start = System.nanoTime();
            try {
                metrics.apiCall("ReceiveMessage");
                messages = sqs.receiveMessage(b -> b.queueUrl(config.queueUrl()).maxNumberOfMessages(config.maxMessages())
                        .waitTimeSeconds(config.waitSeconds())).messages();
                metrics.pollSucceeded(config.queueName(), System.nanoTime() - start);
            } catch (SdkException e) {
                if (stopped) {
                    return;
                }
                AwsFailure f = AwsFailure.of(e, credentials::resolveCredentials);
                metrics.apiFailed("ReceiveMessage", f.reason());
                metrics.pollFailed(config.queueName(), f.reason());
                failures++;
                Duration wait = backoff.delay(failures);
                errors.failure("alb-logs queue " + config.queueName(), f.reason(), "ReceiveMessage: " + f.message(),
                        " (attempt " + failures + ", next in " + wait.toMillis() + " ms)");
                if (!sleep(wait)) {
                    return;
                }
                continue;
            }
            boolean allDone = true;
            for (Message m : messages) {
                if (stopped) {
                    return;
                }
                MessageHandler.Result r;
                try {
                    r = handler.handle(m);
                } catch (RuntimeException | LinkageError | AssertionError e) {
                    LOG.error("alb-logs: internal error on message {}; it stays in the queue", m.messageId(), e);
                    r = MessageHandler.Result.RETRY;
                }
                if (r == MessageHandler.Result.DELETE) {
                    delete(m);
                } else {
                    allDone = false;
                    retryLater(m);
                }
            }
            if (allDone) {
                if (failures > 0) {
                    errors.recovered("alb-logs queue " + config.queueName());
                }
                failures = 0;
            } else {
                failures++;
                if (!sleep(backoff.delay(failures))) {
                    return;
                }
            }
        }
    }

    private void delete(Message m) {
        try {
            metrics.apiCall("DeleteMessage");
            sqs.deleteMessage(b -> b.queueUrl(config.queueUrl()).receiptHandle(m.receiptHandle()));
            metrics.message("deleted");
        } catch (SdkException e) {
            AwsFailure f = AwsFailure.of(e, credentials::resolveCredentials);
            metrics.apiFailed("DeleteMessage", f.reason());
            // the object is in the completion log: when the message comes back it is deleted without producing again
            errors.failure("alb-logs delete", f.reason(), "DeleteMessage " + m.messageId() + ": " + f.message(), "");
        }
    }

    private void retryLater(Message m) {
        metrics.message("retried");
        try {
            metrics.apiCall("ChangeMessageVisibility");
            sqs.changeMessageVisibility(b -> b.queueUrl(config.queueUrl()).receiptHandle(m.receiptHandle())
                    .visibilityTimeout(config.retryVisibilitySeconds()));
        } catch (SdkException e) {
            AwsFailure f = AwsFailure.of(e, credentials::resolveCredentials);
            metrics.apiFailed("ChangeMessageVisibility", f.reason());
            errors.failure("alb-logs visibility", f.reason(), "ChangeMessageVisibility " + m.messageId() + ": " + f.message(),
                    " (the message returns after the queue's own visibility timeout)");
        }
    }

    private boolean sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
            return !stopped;
        } catch (InterruptedException e) {
            return false;
        }
    }

    @Override
    public CollectorServices services() {
        return services;
    }

    @Override
    public synchronized void close() {
        stopped = true;
        if (thread != null) {
            // a message under way is finished or left (its lines may go out again after redelivery); a long poll is cut
            try {
                thread.join(config.aws().timeout().toMillis() + 2_000);
                if (thread.isAlive()) {
                    thread.interrupt();
                    thread.join(5_000);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (sqs != null) {
            sqs.close();
        }
        if (s3 != null) {
            s3.close();
        }
        services.close();
        if (completions != null) {
            try {
                completions.close();
            } catch (IOException e) {
                LOG.warn("alb-logs: closing the completion log: {}", e.toString());
            }
        }
    }
}
