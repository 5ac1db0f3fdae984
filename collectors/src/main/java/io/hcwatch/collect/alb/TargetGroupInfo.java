package io.hcwatch.collect.alb;

import io.hcwatch.avro.v1.CheckConfig;
import io.hcwatch.avro.v1.Thresholds;
import java.util.Locale;
import java.util.Map;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.LoadBalancer;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.TargetGroup;

/**
 * What the slow Describe* calls say about one target group, in the terms of an LbConfig.
 *
 * @param lb        the load balancer as ALB logs name it ({@code app/<name>/<id>}, from its ARN)
 * @param crossZone the target group's own setting, or the load balancer's where it defers to it
 */
record TargetGroupInfo(String arn, String name, String lb, String targetType, CheckConfig check, Boolean crossZone,
                       Thresholds unhealthyStateRouting, Thresholds dnsFailover) {

    static final String CROSS_ZONE = "load_balancing.cross_zone.enabled";
    static final String ROUTING_COUNT = "target_group_health.unhealthy_state_routing.minimum_healthy_targets.count";
    static final String ROUTING_PERCENT = "target_group_health.unhealthy_state_routing.minimum_healthy_targets.percentage";
    static final String DNS_COUNT = "target_group_health.dns_failover.minimum_healthy_targets.count";
    static final String DNS_PERCENT = "target_group_health.dns_failover.minimum_healthy_targets.percentage";

    static TargetGroupInfo of(TargetGroup tg, Map<String, String> attributes, LoadBalancer lb, Map<String, String> lbAttributes) {
        CheckConfig check = new CheckConfig(tg.healthCheckPath(), seconds(tg.healthCheckIntervalSeconds()),
                seconds(tg.healthCheckTimeoutSeconds()), tg.healthyThresholdCount(), tg.unhealthyThresholdCount());
        return new TargetGroupInfo(tg.targetGroupArn(), tg.targetGroupName(), lbName(lb.loadBalancerArn()),
                tg.targetTypeAsString(), check, crossZone(attributes.get(CROSS_ZONE), lb, lbAttributes),
                thresholds(attributes.get(ROUTING_COUNT), attributes.get(ROUTING_PERCENT)),
                thresholds(attributes.get(DNS_COUNT), attributes.get(DNS_PERCENT)));
    }

    /** {@code app/my-lb/50dc6c495c0c9188} from {@code arn:aws:elasticloadbalancing:...:loadbalancer/app/my-lb/50dc...}. */
    static String lbName(String arn) {
        int at = arn == null ? -1 : arn.indexOf(":loadbalancer/");
        return at < 0 ? arn : arn.substring(at + ":loadbalancer/".length());
    }

    /**
     * "true"/"false", or "use_load_balancer_configuration": then the load balancer's attribute, and
     * where it has none (an Application Load Balancer, on which cross-zone is always on) true.
     */
    static Boolean crossZone(String targetGroupValue, LoadBalancer lb, Map<String, String> lbAttributes) {
        if ("true".equalsIgnoreCase(targetGroupValue) || "false".equalsIgnoreCase(targetGroupValue)) {
            return Boolean.valueOf(targetGroupValue.toLowerCase(Locale.ROOT));
        }
        String lbValue = lbAttributes.get(CROSS_ZONE);
        if (lbValue != null) {
            return Boolean.valueOf(lbValue.toLowerCase(Locale.ROOT));
        }
        return "application".equals(lb.typeAsString()) ? Boolean.TRUE : null;
    }

    /** A count and a percentage, each a number or "off" (absent); null when both are absent. */
    static Thresholds thresholds(String count, String percent) {
        Integer c = wholeOrOff(count);
        Double p = percentOrOff(percent);
        return c == null && p == null ? null : new Thresholds(c, p);
    }

    private static Integer wholeOrOff(String text) {
        if (text == null || text.isBlank() || text.equalsIgnoreCase("off")) {
            return null;
        }
        try {
            int v = Integer.parseInt(text.strip());
            return v < 0 ? null : v;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Double percentOrOff(String text) {
        if (text == null || text.isBlank() || text.equalsIgnoreCase("off")) {
            return null;
        }
        try {
            double v = Double.parseDouble(text.strip());
            return v >= 0 && v <= 100 ? v : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Integer seconds(Integer s) {
        return s == null ? null : s * 1000;
    }
}
