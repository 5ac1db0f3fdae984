package io.hcwatch.traffic;

/**
 * A target's key ({@code ip:port}) in the per-target counts, one String per target while it recurs:
 * building it for every access-log line made a new String whose hash the counts' map then computed
 * again. Held by the address's own String, which the ALB parser reuses while the target recurs, and
 * the port; a table of 64, each entry replaced by the next address that lands on it.
 */
final class TargetKeys {

    private static final int SIZE = 64;

    private final String[] addresses = new String[SIZE];
    private final int[] ports = new int[SIZE];
    private final String[] keys = new String[SIZE];

    String of(String address, int port) {
        int i = (address.hashCode() * 31 + port) & (SIZE - 1);
        String held = addresses[i];
        if (held != null && ports[i] == port && (held == address || held.equals(address))) {
            return keys[i];
        }
        String key = address + ":" + port;
        addresses[i] = address;
        ports[i] = port;
        keys[i] = key;
        return key;
    }
}
