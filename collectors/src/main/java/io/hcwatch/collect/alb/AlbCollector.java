package io.hcwatch.collect.alb;

import io.hcwatch.collect.CollectorMetrics;
import io.hcwatch.collect.Collector;
import io.hcwatch.collect.CollectorServices;
import io.hcwatch.collect.ErrorLog;
import io.hcwatch.collect.Outgoing;
import io.hcwatch.collect.Publisher;
import io.hcwatch.collect.aws.AwsSettings;
import io.hcwatch.retry.ExponentialBackoff;
import io.hcwatch.retry.RateLimiter;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.services.elasticloadbalancingv2.ElasticLoadBalancingV2Client;

/**
 * The ALB collector: one ELBv2 client on the URLConnection HTTP client, one poll thread under a
 * request budget, one producer, and {@code /metrics}, {@code /health}, {@code /ready}.
 */
public final class AlbCollector implements Collector {

    private static final Logger LOG = LoggerFactory.getLogger(AlbCollector.class);

    private final AlbConfig config;
    private final AwsCredentialsProvider credentials;
    private final CollectorServices services = new CollectorServices();
    private final CollectorMetrics metrics = services.metrics();
    private ElasticLoadBalancingV2Client client;
    private AlbPoller poller;
    private Thread thread;

    AlbCollector(AlbConfig config, AwsCredentialsProvider credentials) {
        this.config = config;
        this.credentials = credentials;
    }

    public synchronized void start() {
        Publisher publisher = services.startPublishing(config.publish(), "hcwatch-collect-alb", this::isReady);
        AwsSettings aws = config.aws();
        client = aws.configure(ElasticLoadBalancingV2Client.builder().httpClient(aws.httpClient(Duration.ZERO)), "elbv2",
                credentials, false, Duration.ZERO).build();
        RateLimiter budget = RateLimiter.system(config.apiRate(), config.apiBurst());
        Duration pauseCap = config.healthInterval().dividedBy(2).compareTo(config.backoffMax()) < 0
                ? config.healthInterval().dividedBy(2) : config.backoffMax();
        ExponentialBackoff throttlePause = new ExponentialBackoff(
                config.backoffInitial().compareTo(pauseCap) < 0 ? config.backoffInitial() : pauseCap, pauseCap);
        ElbApi api = new ElbApi(client, budget, metrics, credentials::resolveCredentials, throttlePause::delay);
        ErrorLog errors = new ErrorLog(LoggerFactory.getLogger(AlbPoller.class), Duration.ofMinutes(1), System::nanoTime);
        ExponentialBackoff backoff = new ExponentialBackoff(config.backoffInitial(), config.backoffMax());
        poller = new AlbPoller(config, api, publisher, this::topic, metrics, errors, backoff, ZoneLookup.fromTargetHealth(),
                Clock.systemUTC());
        thread = new Thread(poller, "hcwatch-collect-alb");
        thread.setDaemon(true);
        thread.start();
        LOG.info("alb: region {}, load balancers {}{}, target health every {} ms, discovery every {} ms, budget {} requests/s",
                aws.region(), config.loadBalancers().isEmpty() ? "tagged " + config.tags() : config.loadBalancers(),
                aws.endpoints().containsKey("elbv2") ? " via " + aws.endpoints().get("elbv2") : "",
                config.healthInterval().toMillis(), config.configInterval().toMillis(), config.apiRate());
        services.serveEndpoints(config.publish(), this::isReady);
    }

    private String topic(Outgoing.Topic t) {
        return switch (t) {
            case CONFIG -> config.configTopic();
            case HEALTH, STATS -> config.healthTopic();
        };
    }

    @Override
    public CollectorServices services() {
        return services;
    }

    /** Ready once a target group's health has been read. */
    @Override
    public boolean isReady() {
        return services.anyPollSucceeded(AlbPoller.DISCOVERY);
    }

    /** Target groups polled now, by name. */
    public List<String> targetGroups() {
        return poller == null ? List.of() : poller.targetGroups();
    }

    @Override
    public synchronized void close() {
        if (poller != null) {
            poller.stop();
            try {
                thread.join(config.aws().timeout().toMillis() + 5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        services.close();
        if (client != null) {
            client.close();
        }
    }
}
