package io.hcwatch.detect.fleet;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.detect.SparseMaps;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a target group's targets are, from its latest LbConfig: the collector's target→zone map
 * ({@code target_zones}, by target id and by ip:port) or, for configs written by hand, the subnet
 * CIDRs of each zone ({@code zone_cidrs}). Raw ALB log lines name a target only by its address;
 * this is how their targets get a zone, so zonal failures and cross-zone rules work on them.
 */
public final class ZoneMap {

    /** The shared empty maps until a config names targets or subnets ({@link SparseMaps}). */
    public Map<String, String> byTarget = SparseMaps.none();
    public Map<String, List<String>> cidrs = SparseMaps.none();

    @JsonIgnore
    private List<Subnet> subnets;

    public ZoneMap() {
    }

    /** The latest config replaces the map: a target it no longer names has no zone from it. */
    void configure(LbConfig c) {
        byTarget = new LinkedHashMap<>();
        if (c.getTargetZones() != null) {
            c.getTargetZones().forEach((target, zone) -> byTarget.put(target.toString(), zone.toString()));
        }
        cidrs = new LinkedHashMap<>();
        if (c.getZoneCidrs() != null) {
            c.getZoneCidrs().forEach((zone, list) -> {
                List<String> copy = new ArrayList<>(list.size());
                list.forEach(cidr -> copy.add(cidr.toString()));
                cidrs.put(zone.toString(), copy);
            });
        }
        byTarget = SparseMaps.compact(byTarget);
        cidrs = SparseMaps.compact(cidrs);
        subnets = null;
    }

    public boolean isEmpty() {
        return byTarget.isEmpty() && cidrs.isEmpty();
    }

    /**
     * The zone of a target named {@code id} at {@code ip}:{@code port} (either may be null): by its
     * id, then by its address in the target map, then the zone whose CIDR holds its address (the
     * most specific one when subnets nest); null when the map does not say.
     */
    public String zoneOf(String id, String ip, Integer port) {
        String zone = byTarget.get(id);
        if (zone == null && ip != null) {
            zone = port == null ? null : byTarget.get(ip + ":" + port);
            if (zone == null) {
                zone = byTarget.get(ip);
            }
        }
        if (zone == null && ip != null && !cidrs.isEmpty()) {
            zone = bySubnet(ip);
        }
        return zone;
    }

    private String bySubnet(String ip) {
        byte[] address = literal(ip);
        if (address == null) {
            return null;
        }
        String zone = null;
        int longest = -1;
        for (Subnet s : subnets()) {
            if (s.prefix > longest && s.contains(address)) {
                zone = s.zone;
                longest = s.prefix;
            }
        }
        return zone;
    }

    private List<Subnet> subnets() {
        if (subnets == null) {
            List<Subnet> parsed = new ArrayList<>();
            cidrs.forEach((zone, list) -> {
                for (String cidr : list) {
                    int slash = cidr.indexOf('/');
                    byte[] network = slash < 0 ? null : literal(cidr.substring(0, slash));
                    int prefix = slash < 0 ? -1 : Integer.parseInt(cidr.substring(slash + 1));
                    if (network != null && network.length == 4 && cidr.indexOf(':') >= 0) {
                        // Java reads an IPv4-mapped network (::ffff:a.b.c.d) as IPv4: its prefix counts 96 bits fewer
                        prefix -= 96;
                    }
                    if (network != null && prefix >= 0 && prefix <= network.length * 8) {
                        parsed.add(new Subnet(zone, network, prefix));
                    }
                }
            });
            subnets = parsed;
        }
        return subnets;
    }

    /** The bytes of an IPv4 or IPv6 literal; null for anything else (never a name lookup). */
    static byte[] literal(String text) {
        if (text.isEmpty() || !(text.indexOf(':') >= 0 || isDottedQuad(text))) {
            return null;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!(Character.digit(c, 16) >= 0 || c == ':' || c == '.')) {
                return null;
            }
        }
        try {
            return InetAddress.getByName(text).getAddress();
        } catch (UnknownHostException e) {
            return null;
        }
    }

    private static boolean isDottedQuad(String text) {
        String[] parts = text.split("\\.", -1);
        if (parts.length != 4) {
            return false;
        }
        for (String p : parts) {
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(Character::isDigit) || Integer.parseInt(p) > 255) {
                return false;
            }
        }
        return true;
    }

    private record Subnet(String zone, byte[] network, int prefix) {
        boolean contains(byte[] address) {
            if (address.length != network.length) {
                return false;
            }
            int full = prefix / 8;
            for (int i = 0; i < full; i++) {
                if (address[i] != network[i]) {
                    return false;
                }
            }
            int rest = prefix % 8;
            if (rest == 0) {
                return true;
            }
            int mask = (0xff << (8 - rest)) & 0xff;
            return (address[full] & mask) == (network[full] & mask);
        }
    }
}
