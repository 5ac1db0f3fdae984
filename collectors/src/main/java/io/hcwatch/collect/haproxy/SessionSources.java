package io.hcwatch.collect.haproxy;

import io.hcwatch.avro.v1.SlotHolder;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Counts the sessions of some frontends by client from the answer to {@code show sess}, read as it
 * arrives: one line per stream, {@code 0x55..: proto=tcpv4 src=127.0.0.1:57320 fe=fe_web be=...}.
 * Only the start of a line is kept (src and fe come first), so a frontend with 50,000 sessions
 * costs the counts, not the 15 MB of the answer. Clients are IPv4 addresses, and IPv6 addresses
 * by /64 (one host or one customer usually has a whole /64); IPv4-mapped IPv6 is IPv4.
 */
final class SessionSources implements RuntimeApiClient.AnswerReader {

    /** src and fe sit in the first ~120 bytes; the rest of a line (buffers, flags) is skipped. */
    private static final int KEPT = 512;
    private static final byte[] SRC = " src=".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FE = " fe=".getBytes(StandardCharsets.US_ASCII);

    private final Set<String> frontends;
    private final Map<String, Map<String, int[]>> byAddress = new HashMap<>();
    private final byte[] line = new byte[KEPT];
    private int length;
    private int lines;
    private String refusal;

    SessionSources(Set<String> frontends) {
        this.frontends = frontends;
    }

    @Override
    public void read(byte[] bytes, int n) {
        for (int i = 0; i < n; i++) {
            byte b = bytes[i];
            if (b == '\n') {
                line();
                length = 0;
            } else if (length < KEPT) {
                line[length++] = b;
            }
        }
    }

    /** Lines read, including the CLI's own session and any unreadable one. */
    int lines() {
        return lines;
    }

    /** HAProxy's sentence when it refused the command ("Permission denied", "Unknown command"), else null. */
    String refusal() {
        return refusal;
    }

    private void line() {
        if (length == 0) {
            return;
        }
        lines++;
        if (lines == 1 && line[0] != '0') {
            refusal = new String(line, 0, length, StandardCharsets.UTF_8).strip();
            return;
        }
        String fe = value(FE);
        if (fe == null || !frontends.contains(fe)) {
            return;
        }
        String src = value(SRC);
        int colon = src == null ? -1 : src.lastIndexOf(':');
        if (colon <= 0 || src.startsWith("unix")) {
            return;
        }
        byAddress.computeIfAbsent(fe, f -> new HashMap<>()).computeIfAbsent(src.substring(0, colon), a -> new int[1])[0]++;
    }

    /** The word after {@code key} in the kept line, or null. */
    private String value(byte[] key) {
        int at = indexOf(key);
        if (at < 0) {
            return null;
        }
        int start = at + key.length;
        int end = start;
        while (end < length && line[end] != ' ') {
            end++;
        }
        return new String(line, start, end - start, StandardCharsets.US_ASCII);
    }

    private int indexOf(byte[] key) {
        outer:
        for (int i = 0; i + key.length <= length; i++) {
            for (int j = 0; j < key.length; j++) {
                if (line[i + j] != key[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** Sessions each frontend had in the answer, whatever their client. */
    Map<String, Integer> listed() {
        Map<String, Integer> listed = new HashMap<>();
        byAddress.forEach((fe, counts) -> listed.put(fe, counts.values().stream().mapToInt(c -> c[0]).sum()));
        return listed;
    }

    /** The {@code top} clients of a frontend by sessions, most first (ties by name); empty when it had none. */
    List<SlotHolder> top(String frontend, int top) {
        Map<String, int[]> counts = byAddress.getOrDefault(frontend, Map.of());
        Map<String, Integer> holders = new HashMap<>();
        counts.forEach((address, c) -> holders.merge(holder(address), c[0], Integer::sum));
        List<Map.Entry<String, Integer>> sorted = new ArrayList<>(holders.entrySet());
        sorted.sort(Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        List<SlotHolder> out = new ArrayList<>(Math.min(top, sorted.size()));
        for (Map.Entry<String, Integer> e : sorted.subList(0, Math.min(top, sorted.size()))) {
            out.add(new SlotHolder(e.getKey(), e.getValue()));
        }
        return out;
    }

    /** IPv4 as it is; IPv6 as its /64 ("2001:db8:1:2::/64"); IPv4-mapped IPv6 as the IPv4 address. */
    static String holder(String address) {
        if (address.indexOf(':') < 0) {
            return address;
        }
        if (address.startsWith("::ffff:") && address.indexOf('.') > 0) {
            return address.substring("::ffff:".length());
        }
        if (!address.chars().allMatch(c -> c == ':' || c == '.' || Character.digit(c, 16) >= 0)) {
            // not an address literal: never let InetAddress look a name up
            return address;
        }
        try {
            // a literal: no name lookup
            byte[] b = InetAddress.getByName(address).getAddress();
            if (b.length != 16) {
                return address;
            }
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < 8; i += 2) {
                sb.append(Integer.toHexString(((b[i] & 0xff) << 8) | (b[i + 1] & 0xff))).append(':');
            }
            return sb.append(":/64").toString();
        } catch (UnknownHostException e) {
            return address;
        }
    }
}
