package io.hcwatch.collect.alb;

import software.amazon.awssdk.services.elasticloadbalancingv2.model.TargetDescription;

/**
 * A target's Availability Zone and address. DescribeTargetHealth gives both for IP targets (the id
 * is the address; {@code AvailabilityZone} is the subnet's zone, or {@code all} for an address
 * outside the VPC), and neither for instance targets: their zone and private address need EC2
 * (InstanceZones, optional).
 */
interface ZoneLookup {

    /** @param zone null when unknown; @param ip null when unknown */
    record Placement(String zone, String ip) {
    }

    Placement placement(TargetGroupInfo tg, TargetDescription target);

    /** What DescribeTargetHealth itself says; instance targets stay without a zone. */
    static ZoneLookup fromTargetHealth() {
        return (tg, t) -> fromResponse(tg, t);
    }

    static Placement fromResponse(TargetGroupInfo tg, TargetDescription t) {
        String zone = t.availabilityZone();
        if (zone != null && (zone.isBlank() || zone.equals("all"))) {
            zone = null;
        }
        String ip = "ip".equals(tg.targetType()) ? t.id() : null;
        return new Placement(zone, ip);
    }
}
