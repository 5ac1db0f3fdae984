package io.hcwatch.collect.aws;

import io.hcwatch.collect.ConfigException;
import io.hcwatch.collect.ConfigReader;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;

/**
 * Where and how the AWS collectors call AWS: the region ({@code aws.region}, else the SDK's chain:
 * AWS_REGION, the profile, instance metadata), optional endpoint overrides per service
 * ({@code aws.endpoint.<service>}: VPC endpoints, FIPS endpoints, test stand-ins) and the time one
 * request may take. Credentials always come from the SDK's default chain (environment, system
 * properties, profile, web identity, container and instance metadata) and never from this file.
 */
public record AwsSettings(Region region, Map<String, URI> endpoints, Duration timeout) {

    public static AwsSettings read(ConfigReader in, List<String> services, Supplier<Region> regionChain) {
        String regionText = in.text("aws.region", null);
        Region region;
        if (regionText != null) {
            region = Region.of(regionText.toLowerCase(Locale.ROOT));
        } else {
            try {
                region = regionChain.get();
            } catch (SdkClientException e) {
                region = null;
            }
            if (region == null) {
                throw ConfigException.key("aws.region", "is not set and the SDK found no region (AWS_REGION, the profile,"
                        + " instance metadata); set e.g. aws.region=us-east-1");
            }
        }
        Map<String, URI> endpoints = new LinkedHashMap<>();
        for (String service : services) {
            String key = "aws.endpoint." + service;
            String text = in.text(key, null);
            if (text != null) {
                endpoints.put(service, endpoint(key, text));
            }
        }
        Duration timeout = in.millis("aws.timeout.ms", 10_000, 100, 600_000);
        return new AwsSettings(region, Map.copyOf(endpoints), timeout);
    }

    /** The SDK's own chain; it may read instance metadata, so it is only asked when aws.region is not set. */
    public static Region regionFromChain() {
        return new DefaultAwsRegionProviderChain().getRegion();
    }

    private static URI endpoint(String key, String text) {
        try {
            URI uri = URI.create(text);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (uri.getHost() == null || !(scheme.equals("http") || scheme.equals("https")) || uri.getUserInfo() != null) {
                throw new IllegalArgumentException("not an http(s) URL without credentials");
            }
            return uri;
        } catch (IllegalArgumentException e) {
            // a URL with user info may hold a password: it is not repeated
            throw ConfigException.key(key, "expected an http(s) URL without credentials, such as https://vpce-0123"
                    + ".elasticloadbalancing.us-east-1.vpce.amazonaws.com, got " + (text.contains("@") ? "one with '@' in it"
                    : "'" + text + "'"));
        }
    }

    /** The default credential chain; one instance per collector so its cached credentials are shared. */
    public static AwsCredentialsProvider credentials() {
        return DefaultCredentialsProvider.builder().build();
    }

    /**
     * The small URLConnection client: no Netty, no Apache HTTP client in the jar.
     *
     * @param longPoll how long the server may hold a request open on purpose (SQS long polling), on top of the timeout
     */
    public SdkHttpClient httpClient(Duration longPoll) {
        return UrlConnectionHttpClient.builder()
                .connectionTimeout(timeout.compareTo(Duration.ofSeconds(5)) < 0 ? timeout : Duration.ofSeconds(5))
                .socketTimeout(timeout.plus(longPoll))
                .build();
    }

    /**
     * Region, credentials, endpoint and timeouts for one service's client builder.
     *
     * @param longPoll   as for {@link #httpClient(Duration)}
     * @param sdkRetries false for APIs whose every request the collector paces and counts itself
     *                   (ELBv2): the SDK then sends each request once
     */
    public <B extends AwsClientBuilder<B, ?>> B configure(B builder, String service, AwsCredentialsProvider credentials,
                                                         boolean sdkRetries, Duration longPoll) {
        builder.region(region).credentialsProvider(credentials);
        URI endpoint = endpoints.get(service);
        if (endpoint != null) {
            builder.endpointOverride(endpoint);
        }
        ClientOverrideConfiguration.Builder override = ClientOverrideConfiguration.builder().apiCallAttemptTimeout(timeout.plus(longPoll));
        if (!sdkRetries) {
            override.retryStrategy(AwsRetryStrategy.doNotRetry());
        }
        return builder.overrideConfiguration(override.build());
    }
}
