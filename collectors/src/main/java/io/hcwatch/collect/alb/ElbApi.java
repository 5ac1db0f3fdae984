package io.hcwatch.collect.alb;

import io.hcwatch.collect.CollectorMetrics;
import io.hcwatch.retry.RateLimiter;
import io.hcwatch.collect.aws.ApiException;
import io.hcwatch.collect.aws.AwsFailure;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.elasticloadbalancingv2.ElasticLoadBalancingV2Client;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.DescribeLoadBalancersResponse;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.DescribeTargetGroupsResponse;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.DescribeTargetHealthInputIncludeEnum;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.LoadBalancer;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.LoadBalancerAttribute;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.Tag;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.TagDescription;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.TargetGroup;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.TargetGroupAttribute;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.TargetHealthDescription;

/**
 * The ELBv2 Describe* calls the collector makes, each request paced by the shared budget, counted
 * ({@code hcwatch_collector_api_calls_total{api}}) and sent once (the SDK does not retry: a
 * throttled request pauses the budget and the caller tries again later). Paginated calls follow
 * Marker with the largest PageSize the API takes, so a page is one request.
 */
final class ElbApi {

    static final int PAGE_SIZE = 400;
    /** DescribeLoadBalancers by ARN or name, and DescribeTags, take at most 20 at a time. */
    static final int BATCH = 20;

    private final ElasticLoadBalancingV2Client client;
    private final RateLimiter budget;
    private final CollectorMetrics metrics;
    private final Supplier<AwsCredentials> credentials;
    private final ThrottlePauses pauses;

    /** How long the budget pauses after the n-th throttle in a row. */
    interface ThrottlePauses {
        java.time.Duration after(int throttlesInARow);
    }

    private int throttlesInARow;

    ElbApi(ElasticLoadBalancingV2Client client, RateLimiter budget, CollectorMetrics metrics,
           Supplier<AwsCredentials> credentials, ThrottlePauses pauses) {
        this.client = client;
        this.budget = budget;
        this.metrics = metrics;
        this.credentials = credentials;
        this.pauses = pauses;
    }

    List<LoadBalancer> loadBalancersByArn(List<String> arns) throws ApiException, InterruptedException {
        List<LoadBalancer> out = new ArrayList<>();
        for (List<String> batch : batches(arns)) {
            out.addAll(call("DescribeLoadBalancers", () -> client.describeLoadBalancers(b -> b.loadBalancerArns(batch)))
                    .loadBalancers());
        }
        return out;
    }

    List<LoadBalancer> loadBalancersByName(List<String> names) throws ApiException, InterruptedException {
        List<LoadBalancer> out = new ArrayList<>();
        for (List<String> batch : batches(names)) {
            out.addAll(call("DescribeLoadBalancers", () -> client.describeLoadBalancers(b -> b.names(batch))).loadBalancers());
        }
        return out;
    }

    List<LoadBalancer> allLoadBalancers() throws ApiException, InterruptedException {
        List<LoadBalancer> out = new ArrayList<>();
        String marker = null;
        do {
            String page = marker;
            DescribeLoadBalancersResponse r = call("DescribeLoadBalancers",
                    () -> client.describeLoadBalancers(b -> b.pageSize(PAGE_SIZE).marker(page)));
            out.addAll(r.loadBalancers());
            marker = r.nextMarker();
        } while (marker != null && !marker.isEmpty());
        return out;
    }

    /** Tags by resource ARN. */
    Map<String, Map<String, String>> tags(List<String> arns) throws ApiException, InterruptedException {
        Map<String, Map<String, String>> out = new LinkedHashMap<>();
        for (List<String> batch : batches(arns)) {
            for (TagDescription d : call("DescribeTags", () -> client.describeTags(b -> b.resourceArns(batch))).tagDescriptions()) {
                Map<String, String> tags = new LinkedHashMap<>();
                for (Tag t : d.tags()) {
                    tags.put(t.key(), t.value() == null ? "" : t.value());
                }
                out.put(d.resourceArn(), tags);
            }
        }
        return out;
    }

    Map<String, String> loadBalancerAttributes(String arn) throws ApiException, InterruptedException {
        Map<String, String> out = new LinkedHashMap<>();
        for (LoadBalancerAttribute a : call("DescribeLoadBalancerAttributes",
                () -> client.describeLoadBalancerAttributes(b -> b.loadBalancerArn(arn))).attributes()) {
            out.put(a.key(), a.value());
        }
        return out;
    }

    List<TargetGroup> targetGroups(String loadBalancerArn) throws ApiException, InterruptedException {
        List<TargetGroup> out = new ArrayList<>();
        String marker = null;
        do {
            String page = marker;
            DescribeTargetGroupsResponse r = call("DescribeTargetGroups",
                    () -> client.describeTargetGroups(b -> b.loadBalancerArn(loadBalancerArn).pageSize(PAGE_SIZE).marker(page)));
            out.addAll(r.targetGroups());
            marker = r.nextMarker();
        } while (marker != null && !marker.isEmpty());
        return out;
    }

    Map<String, String> targetGroupAttributes(String arn) throws ApiException, InterruptedException {
        Map<String, String> out = new LinkedHashMap<>();
        for (TargetGroupAttribute a : call("DescribeTargetGroupAttributes",
                () -> client.describeTargetGroupAttributes(b -> b.targetGroupArn(arn))).attributes()) {
            out.put(a.key(), a.value());
        }
        return out;
    }

    /** Every target with every reason code and the anomaly detection result ({@code Include=All}). */
    List<TargetHealthDescription> targetHealth(String targetGroupArn) throws ApiException, InterruptedException {
        return call("DescribeTargetHealth", () -> client.describeTargetHealth(b -> b.targetGroupArn(targetGroupArn)
                .include(DescribeTargetHealthInputIncludeEnum.ALL))).targetHealthDescriptions();
    }

    private <T> T call(String api, Supplier<T> request) throws ApiException, InterruptedException {
        budget.acquire();
        metrics.apiCall(api);
        try {
            T response = request.get();
            synchronized (this) {
                throttlesInARow = 0;
            }
            return response;
        } catch (SdkException e) {
            AwsFailure failure = AwsFailure.of(e, credentials);
            if (failure.throttled()) {
                metrics.apiThrottled(api);
                int n;
                synchronized (this) {
                    n = ++throttlesInARow;
                }
                // the bucket is the account's: every caller of this API waits, not just this one
                budget.pause(pauses.after(n));
            } else {
                metrics.apiFailed(api, failure.reason());
            }
            throw new ApiException(api, failure);
        }
    }

    private static List<List<String>> batches(List<String> values) {
        List<List<String>> out = new ArrayList<>();
        for (int i = 0; i < values.size(); i += BATCH) {
            out.add(List.copyOf(values.subList(i, Math.min(values.size(), i + BATCH))));
        }
        return out;
    }
}
