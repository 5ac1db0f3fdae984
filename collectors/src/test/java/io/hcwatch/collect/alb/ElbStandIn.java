package io.hcwatch.collect.alb;

import com.sun.net.httpserver.HttpExchange;
import io.hcwatch.collect.aws.StandInServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;

/**
 * ELBv2 on loopback for the real SDK (test code): the Query API (form-encoded POST,
 * {@code Action=...&Version=2015-12-01}) answered with XML shaped as the ELBv2 API Reference shows
 * it ({@code <XResponse xmlns=...><XResult>...</XResult><ResponseMetadata>}), lists as
 * {@code <member>} elements, errors as {@code <ErrorResponse><Error><Type/><Code/><Message/>}. It
 * holds load balancers, target groups with settings and attributes, and targets whose health a
 * test changes while the collector polls; it records every request it served.
 */
final class ElbStandIn extends StandInServer {

    static final String NS = "http://elasticloadbalancing.amazonaws.com/doc/2015-12-01/";
    static final String ACCOUNT = "123456789012";
    static final String REGION = "us-east-1";

    /** A served request: when, which action, for which target group (or null), and the HTTP status. */
    record Served(long nanos, String action, String targetGroupArn, int status) {
    }

    static final class Lb {
        final String name;
        final String arn;
        final Map<String, String> zones;
        final Map<String, String> attributes = new ConcurrentHashMap<>();
        final Map<String, String> tags = new ConcurrentHashMap<>();

        Lb(String name, Map<String, String> zones) {
            this.name = name;
            this.arn = "arn:aws:elasticloadbalancing:" + REGION + ":" + ACCOUNT + ":loadbalancer/app/" + name + "/50dc6c495c0c9188";
            this.zones = zones;
            attributes.put("deletion_protection.enabled", "false");
            attributes.put("idle_timeout.timeout_seconds", "60");
        }
    }

    static final class Tg {
        final String name;
        final String arn;
        final String lbArn;
        final String targetType;
        volatile int intervalSeconds = 30;
        volatile int timeoutSeconds = 5;
        volatile int healthy = 5;
        volatile int unhealthy = 2;
        volatile String path = "/health";
        final Map<String, String> attributes = new ConcurrentHashMap<>();
        final List<Target> targets = new CopyOnWriteArrayList<>();

        Tg(String name, String lbArn, String targetType, int index) {
            this.name = name;
            this.arn = "arn:aws:elasticloadbalancing:" + REGION + ":" + ACCOUNT + ":targetgroup/" + name + "/"
                    + String.format("%016x", 0x73e2d6bc24d8a000L + index);
            this.lbArn = lbArn;
            this.targetType = targetType;
            attributes.put("deregistration_delay.timeout_seconds", "300");
            attributes.put("load_balancing.cross_zone.enabled", "use_load_balancer_configuration");
            attributes.put(TargetGroupInfo.ROUTING_COUNT, "1");
            attributes.put(TargetGroupInfo.ROUTING_PERCENT, "off");
            attributes.put(TargetGroupInfo.DNS_COUNT, "1");
            attributes.put(TargetGroupInfo.DNS_PERCENT, "off");
        }

        Target add(String id, int port, String zone) {
            Target t = new Target(id, port, zone);
            targets.add(t);
            return t;
        }
    }

    static final class Target {
        final String id;
        final int port;
        final String zone;
        volatile String state = "healthy";
        volatile String reason;
        volatile String description;

        Target(String id, int port, String zone) {
            this.id = id;
            this.port = port;
            this.zone = zone;
        }

        synchronized void set(String state, String reason, String description) {
            this.reason = reason;
            this.description = description;
            this.state = state;
        }
    }

    enum Hostile { ECHO_403, STATUS_500, MALFORMED_XML }

    final List<Lb> lbs = new CopyOnWriteArrayList<>();
    final List<Tg> tgs = new CopyOnWriteArrayList<>();
    final List<Served> served = new CopyOnWriteArrayList<>();
    /** At most this many items a page, whatever PageSize asks, so tests see Marker pagination. */
    volatile int pageCap = 400;
    /** Requests (numbered from 1) for which this holds are answered with a Throttling error. */
    volatile IntPredicate throttle = n -> false;
    /** When set, every request gets this answer instead. */
    volatile Hostile hostile;
    private final AtomicInteger requests = new AtomicInteger();

    Lb addLb(String name, Map<String, String> zones) {
        Lb lb = new Lb(name, zones);
        lbs.add(lb);
        return lb;
    }

    Tg addTg(String name, Lb lb, String targetType) {
        Tg tg = new Tg(name, lb.arn, targetType, tgs.size());
        tgs.add(tg);
        return tg;
    }

    /** A collector's properties for this stand-in: JSON to {@code bootstrap}, no endpoints, the load balancer named. */
    java.util.Properties collectorProperties(String bootstrap, String loadBalancer) {
        java.util.Properties p = new java.util.Properties();
        p.setProperty("bootstrap.servers", bootstrap);
        p.setProperty("format", "json");
        p.setProperty("metrics.port", "-1");
        p.setProperty("aws.region", REGION);
        p.setProperty("aws.endpoint.elbv2", endpoint().toString());
        p.setProperty("alb.load-balancers", loadBalancer);
        return p;
    }

    long count(String action) {
        return served.stream().filter(s -> s.action.equals(action)).count();
    }

    long count(String action, String targetGroupArn) {
        return served.stream().filter(s -> s.action.equals(action) && targetGroupArn.equals(s.targetGroupArn)).count();
    }

    @Override
    protected void handle(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        Map<String, String> p = form(body);
        String action = p.getOrDefault("Action", "?");
        int n = requests.incrementAndGet();
        Hostile h = hostile;
        if (h != null) {
            served.add(new Served(System.nanoTime(), action, p.get("TargetGroupArn"), h == Hostile.MALFORMED_XML ? 200 : 500));
            switch (h) {
                case ECHO_403 -> error(exchange, 403, "Sender", "AccessDenied", "User is not authorized; request was: " + echo(exchange, body));
                case STATUS_500 -> error(exchange, 500, "Receiver", "InternalFailure", "internal error serving " + echo(exchange, body));
                default -> send(exchange, 200, "text/xml", ("<" + action + "Response xmlns=\"" + NS + "\"><" + action
                        + "Result><TargetHealthDescriptions><member><Target><Id>" + echo(exchange, body))
                        .getBytes(StandardCharsets.UTF_8));
            }
            return;
        }
        if (!"2015-12-01".equals(p.get("Version"))) {
            error(exchange, 400, "Sender", "InvalidAction", "expected Version=2015-12-01");
            return;
        }
        if (throttle.test(n)) {
            served.add(new Served(System.nanoTime(), action, p.get("TargetGroupArn"), 400));
            error(exchange, 400, "Sender", "Throttling", "Rate exceeded");
            return;
        }
        String result = switch (action) {
            case "DescribeLoadBalancers" -> describeLoadBalancers(p);
            case "DescribeTags" -> describeTags(p);
            case "DescribeLoadBalancerAttributes" -> attributes(lbByArn(p.get("LoadBalancerArn")).attributes);
            case "DescribeTargetGroups" -> describeTargetGroups(p);
            case "DescribeTargetGroupAttributes" -> attributes(tgByArn(p.get("TargetGroupArn")).attributes);
            case "DescribeTargetHealth" -> describeTargetHealth(p);
            default -> null;
        };
        if (result == null) {
            served.add(new Served(System.nanoTime(), action, p.get("TargetGroupArn"), 400));
            error(exchange, 400, "Sender", "InvalidAction", "unknown action " + action);
            return;
        }
        served.add(new Served(System.nanoTime(), action, p.get("TargetGroupArn"), 200));
        String xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<" + action + "Response xmlns=\"" + NS + "\">\n  <" + action
                + "Result>\n" + result + "  </" + action + "Result>\n  <ResponseMetadata>\n    <RequestId>" + requestId(n)
                + "</RequestId>\n  </ResponseMetadata>\n</" + action + "Response>\n";
        send(exchange, 200, "text/xml", xml.getBytes(StandardCharsets.UTF_8));
    }

    private static String requestId(int n) {
        return String.format("6e0a5b3c-0000-4000-8000-%012d", n);
    }

    private void error(HttpExchange exchange, int status, String type, String code, String message) throws IOException {
        String xml = "<ErrorResponse xmlns=\"" + NS + "\">\n  <Error>\n    <Type>" + type + "</Type>\n    <Code>" + code
                + "</Code>\n    <Message>" + xml(message) + "</Message>\n  </Error>\n  <RequestId>" + requestId(requests.get())
                + "</RequestId>\n</ErrorResponse>\n";
        send(exchange, status, "text/xml", xml.getBytes(StandardCharsets.UTF_8));
    }

    private static List<String> members(Map<String, String> p, String name) {
        List<String> out = new ArrayList<>();
        for (int i = 1; p.containsKey(name + ".member." + i); i++) {
            out.add(p.get(name + ".member." + i));
        }
        return out;
    }

    private Lb lbByArn(String arn) {
        return lbs.stream().filter(l -> l.arn.equals(arn)).findFirst().orElseThrow();
    }

    private Tg tgByArn(String arn) {
        return tgs.stream().filter(t -> t.arn.equals(arn)).findFirst().orElseThrow();
    }

    private <T> List<T> page(List<T> all, Map<String, String> p, StringBuilder marker) {
        int size = Math.min(pageCap, Integer.parseInt(p.getOrDefault("PageSize", "400")));
        int from = p.containsKey("Marker") ? Integer.parseInt(p.get("Marker")) : 0;
        int to = Math.min(all.size(), from + size);
        if (to < all.size()) {
            marker.append(to);
        }
        return all.subList(from, to);
    }

    private String describeLoadBalancers(Map<String, String> p) {
        List<String> arns = members(p, "LoadBalancerArns");
        List<String> names = members(p, "Names");
        List<Lb> selected = lbs.stream().filter(l -> (arns.isEmpty() || arns.contains(l.arn))
                && (names.isEmpty() || names.contains(l.name))).toList();
        StringBuilder marker = new StringBuilder();
        StringBuilder sb = new StringBuilder("    <LoadBalancers>\n");
        for (Lb lb : page(selected, p, marker)) {
            sb.append("      <member>\n        <LoadBalancerArn>").append(lb.arn).append("</LoadBalancerArn>\n")
                    .append("        <Scheme>internet-facing</Scheme>\n        <LoadBalancerName>").append(lb.name)
                    .append("</LoadBalancerName>\n        <VpcId>vpc-3ac0fb5f</VpcId>\n")
                    .append("        <CanonicalHostedZoneId>Z2P70J7EXAMPLE</CanonicalHostedZoneId>\n")
                    .append("        <CreatedTime>2016-03-25T21:26:12.920Z</CreatedTime>\n        <AvailabilityZones>\n");
            lb.zones.forEach((zone, subnet) -> sb.append("          <member>\n            <SubnetId>").append(subnet)
                    .append("</SubnetId>\n            <ZoneName>").append(zone).append("</ZoneName>\n          </member>\n"));
            sb.append("        </AvailabilityZones>\n        <SecurityGroups>\n          <member>sg-5943793c</member>\n")
                    .append("        </SecurityGroups>\n        <DNSName>").append(lb.name)
                    .append("-424835706.us-east-1.elb.amazonaws.com</DNSName>\n        <State>\n          <Code>active</Code>\n")
                    .append("        </State>\n        <Type>application</Type>\n      </member>\n");
        }
        sb.append("    </LoadBalancers>\n");
        if (!marker.isEmpty()) {
            sb.append("    <NextMarker>").append(marker).append("</NextMarker>\n");
        }
        return sb.toString();
    }

    private String describeTags(Map<String, String> p) {
        StringBuilder sb = new StringBuilder("    <TagDescriptions>\n");
        for (String arn : members(p, "ResourceArns")) {
            sb.append("      <member>\n        <ResourceArn>").append(arn).append("</ResourceArn>\n        <Tags>\n");
            lbs.stream().filter(l -> l.arn.equals(arn)).findFirst().ifPresent(lb -> lb.tags.forEach((k, v) ->
                    sb.append("          <member>\n            <Value>").append(xml(v)).append("</Value>\n            <Key>")
                            .append(xml(k)).append("</Key>\n          </member>\n")));
            sb.append("        </Tags>\n      </member>\n");
        }
        return sb.append("    </TagDescriptions>\n").toString();
    }

    private static String attributes(Map<String, String> attributes) {
        StringBuilder sb = new StringBuilder("    <Attributes>\n");
        attributes.forEach((k, v) -> sb.append("      <member>\n        <Value>").append(xml(v)).append("</Value>\n        <Key>")
                .append(xml(k)).append("</Key>\n      </member>\n"));
        return sb.append("    </Attributes>\n").toString();
    }

    private String describeTargetGroups(Map<String, String> p) {
        String lbArn = p.get("LoadBalancerArn");
        List<Tg> selected = tgs.stream().filter(t -> lbArn == null || t.lbArn.equals(lbArn)).toList();
        StringBuilder marker = new StringBuilder();
        StringBuilder sb = new StringBuilder("    <TargetGroups>\n");
        for (Tg tg : page(selected, p, marker)) {
            sb.append("      <member>\n        <TargetGroupArn>").append(tg.arn).append("</TargetGroupArn>\n")
                    .append("        <HealthCheckTimeoutSeconds>").append(tg.timeoutSeconds).append("</HealthCheckTimeoutSeconds>\n")
                    .append("        <HealthCheckPort>traffic-port</HealthCheckPort>\n")
                    .append("        <Matcher>\n          <HttpCode>200</HttpCode>\n        </Matcher>\n")
                    .append("        <TargetGroupName>").append(tg.name).append("</TargetGroupName>\n")
                    .append("        <HealthCheckProtocol>HTTP</HealthCheckProtocol>\n")
                    .append("        <HealthCheckPath>").append(xml(tg.path)).append("</HealthCheckPath>\n")
                    .append("        <Protocol>HTTP</Protocol>\n        <Port>80</Port>\n        <VpcId>vpc-3ac0fb5f</VpcId>\n")
                    .append("        <HealthyThresholdCount>").append(tg.healthy).append("</HealthyThresholdCount>\n")
                    .append("        <HealthCheckEnabled>true</HealthCheckEnabled>\n")
                    .append("        <HealthCheckIntervalSeconds>").append(tg.intervalSeconds).append("</HealthCheckIntervalSeconds>\n")
                    .append("        <UnhealthyThresholdCount>").append(tg.unhealthy).append("</UnhealthyThresholdCount>\n")
                    .append("        <LoadBalancerArns>\n          <member>").append(tg.lbArn).append("</member>\n")
                    .append("        </LoadBalancerArns>\n        <TargetType>").append(tg.targetType).append("</TargetType>\n")
                    .append("        <IpAddressType>ipv4</IpAddressType>\n      </member>\n");
        }
        sb.append("    </TargetGroups>\n");
        if (!marker.isEmpty()) {
            sb.append("    <NextMarker>").append(marker).append("</NextMarker>\n");
        }
        return sb.toString();
    }

    private String describeTargetHealth(Map<String, String> p) {
        Tg tg = tgByArn(p.get("TargetGroupArn"));
        boolean all = members(p, "Include").contains("All");
        StringBuilder sb = new StringBuilder("    <TargetHealthDescriptions>\n");
        for (Target t : tg.targets) {
            String state;
            String reason;
            String description;
            synchronized (t) {
                state = t.state;
                reason = t.reason;
                description = t.description;
            }
            sb.append("      <member>\n        <HealthCheckPort>").append(t.port).append("</HealthCheckPort>\n")
                    .append("        <Target>\n          <Port>").append(t.port).append("</Port>\n          <Id>").append(t.id)
                    .append("</Id>\n");
            if (t.zone != null) {
                sb.append("          <AvailabilityZone>").append(t.zone).append("</AvailabilityZone>\n");
            }
            sb.append("        </Target>\n        <TargetHealth>\n          <State>").append(state).append("</State>\n");
            if (reason != null) {
                sb.append("          <Reason>").append(reason).append("</Reason>\n");
            }
            if (description != null) {
                sb.append("          <Description>").append(xml(description)).append("</Description>\n");
            }
            sb.append("        </TargetHealth>\n");
            if (all) {
                sb.append("        <AnomalyDetection>\n          <Result>normal</Result>\n")
                        .append("          <MitigationInEffect>no</MitigationInEffect>\n        </AnomalyDetection>\n");
            }
            sb.append("      </member>\n");
        }
        return sb.append("    </TargetHealthDescriptions>\n").toString();
    }
}
