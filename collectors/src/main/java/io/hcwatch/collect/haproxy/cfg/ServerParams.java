package io.hcwatch.collect.haproxy.cfg;

import java.util.List;

/**
 * The check parameters a {@code server} or {@code default-server} line sets; null where it sets
 * none, so a server line overlays its default-server, which overlays its defaults section's.
 */
final class ServerParams {
    Boolean check;
    Integer inter;
    Integer fastInter;
    Integer downInter;
    Integer rise;
    Integer fall;

    ServerParams copy() {
        ServerParams p = new ServerParams();
        p.overlay(this);
        return p;
    }

    void overlay(ServerParams o) {
        check = o.check != null ? o.check : check;
        inter = o.inter != null ? o.inter : inter;
        fastInter = o.fastInter != null ? o.fastInter : fastInter;
        downInter = o.downInter != null ? o.downInter : downInter;
        rise = o.rise != null ? o.rise : rise;
        fall = o.fall != null ? o.fall : fall;
    }

    /**
     * Reads the keywords that matter from {@code words} (from {@code from} on). Other keywords are
     * skipped one word at a time: a value that happened to read "inter" could mislead this, but
     * HAProxy's server keywords take no such values.
     */
    static ServerParams read(List<String> words, int from) {
        ServerParams p = new ServerParams();
        for (int i = from; i < words.size(); i++) {
            String w = words.get(i);
            String next = i + 1 < words.size() ? words.get(i + 1) : null;
            switch (w) {
                case "check" -> p.check = true;
                case "no-check" -> p.check = false;
                case "inter" -> p.inter = CfgTime.millis(next);
                case "fastinter" -> p.fastInter = CfgTime.millis(next);
                case "downinter" -> p.downInter = CfgTime.millis(next);
                case "rise" -> p.rise = CfgTime.count(next);
                case "fall" -> p.fall = CfgTime.count(next);
                default -> {
                    continue;
                }
            }
            if (!w.equals("check") && !w.equals("no-check")) {
                i++;
            }
        }
        return p;
    }
}
