package io.hcwatch.simulate;

import java.util.Arrays;

/**
 * A population of clients with IPv4 and IPv6 addresses whose request rates follow a Zipf-like
 * curve: a few busy clients (offices behind NAT, API integrations) and a long tail, none of
 * them near a flood. IPv4 addresses come from 198.18.0.0/15 (RFC 2544) and IPv6 ones from
 * 2001:db8::/32 (RFC 3849), so nothing here names a real host.
 */
final class ClientPool {

    private final String[] addresses;
    private final String[] ids;
    private final double[] cumulative;

    private ClientPool(String[] addresses, String[] ids, double[] cumulative) {
        this.addresses = addresses;
        this.ids = ids;
        this.cumulative = cumulative;
    }

    /**
     * @param ipv6Share share of clients with an IPv6 address
     * @param skew      Zipf exponent; the busiest client's share falls as the pool grows
     * @param withIds   give each client a device UUID (a client then pings one path of its own)
     */
    static ClientPool create(Dice dice, int size, double ipv6Share, double skew, boolean withIds) {
        String[] addresses = new String[size];
        String[] ids = withIds ? new String[size] : null;
        double[] cumulative = new double[size];
        double sum = 0;
        for (int i = 0; i < size; i++) {
            addresses[i] = dice.chance(ipv6Share) ? ipv6(dice) : ipv4(dice);
            if (withIds) {
                ids[i] = dice.uuid();
            }
            sum += 1.0 / Math.pow(i + 8, skew);
            cumulative[i] = sum;
        }
        for (int i = 0; i < size; i++) {
            cumulative[i] /= sum;
        }
        return new ClientPool(addresses, ids, cumulative);
    }

    /** Index of a client drawn by request share. */
    int sample(Dice dice) {
        int i = Arrays.binarySearch(cumulative, dice.uniform());
        return Math.min(addresses.length - 1, i >= 0 ? i : -i - 1);
    }

    String address(int client) {
        return addresses[client];
    }

    String id(int client) {
        return ids[client];
    }

    static String ipv4(Dice dice) {
        return "198." + (18 + dice.index(2)) + "." + dice.index(256) + "." + (1 + dice.index(254));
    }

    static String ipv6(Dice dice) {
        return ipv6In("2001:db8:" + group(dice) + ":" + group(dice), dice);
    }

    /** An address in the /64 whose first four groups are {@code prefix64}, with a random interface id. */
    static String ipv6In(String prefix64, Dice dice) {
        return prefix64 + ":" + group(dice) + ":" + group(dice) + ":" + group(dice) + ":" + group(dice);
    }

    private static String group(Dice dice) {
        return Integer.toHexString(1 + dice.index(0xfffe));
    }

    static int ephemeralPort(Dice dice) {
        return 1024 + dice.index(64_511);
    }
}
