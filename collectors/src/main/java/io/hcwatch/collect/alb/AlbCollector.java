package io.hcwatch.collect.alb;

import io.hcwatch.collect.Backoff;
import io.hcwatch.collect.CollectorMetrics;
import io.hcwatch.collect.CollectorServices;
import io.hcwatch.collect.ErrorLog;
import io.hcwatch.collect.Outgoing;
import io.hcwatch.collect.Publisher;
import io.hcwatch.collect.aws.ApiBudget;
import io.hcwatch.collect.aws.AwsSettings;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.services.elasticloadbalancingv2.ElasticLoadBalancingV2Client;

/**
 * The ALB collector: one ELBv2 client on the URLConnection HTTP client, one poll thread under a
 * request budget, one producer, and {@code /metrics}, {@code /health}, {@code /ready}.
 */
public final class AlbCollector implements AutoCloseable {

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
        ApiBudget budget = ApiBudget.system(config.apiRate(), config.apiBurst());
        Duration pauseCap = config.healthInterval().dividedBy(2).compareTo(config.backoffMax()) < 0
                ? config.healthInterval().dividedBy(2) : config.backoffMax();
        Backoff throttlePause = new Backoff(config.backoffInitial().compareTo(pauseCap) < 0 ? config.backoffInitial() : pauseCap,
                pauseCap, () -> ThreadLocalRandom.current().nextDouble());
        ElbApi api = new ElbApi(client, budget, metrics, credentials::resolveCredentials, throttlePause::delay);
        ErrorLog errors = new ErrorLog(LoggerFactory.getLogger(AlbPoller.class), Duration.ofMinutes(1), System::nanoTime);
        Backoff backoff = new Backoff(config.backoffInitial(), config.backoffMax(), () -> ThreadLocalRandom.current().nextDouble());
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

    /** Ready once a target group's health has been read. */
    public boolean isReady() {
        return services.anyPollSucceeded(AlbPoller.DISCOVERY);
    }

    public PrometheusMeterRegistry registry() {
        return services.registry();
    }

    /** Target groups polled now, by name. */
    public List<String> targetGroups() {
        return poller == null ? List.of() : poller.targetGroups();
    }

    public int metricsPort() {
        return services.metricsPort();
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
