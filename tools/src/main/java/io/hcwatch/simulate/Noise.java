package io.hcwatch.simulate;

import java.util.ArrayList;
import java.util.List;

/**
 * The trouble every healthy estate has and no one should be paged for: a target that fails a
 * check or two (or drops out for a minute and comes back), an occasional slow check, an HAProxy
 * host that loses a check to a network hiccup. Rates scale with {@link ScenarioParams#noise()}.
 */
final class Noise {

    private static final long BLIP_EVERY_MS = 90 * 60_000L;
    private static final long SLOW_CHECK_EVERY_MS = 15 * 60_000L;
    private static final long HAPROXY_BLIP_EVERY_MS = 60 * 60_000L;

    private final World w;
    private final Dice dice;

    Noise(World w) {
        this.w = w;
        this.dice = w.noiseDice.split();
    }

    void begin() {
        double noise = w.params.noise();
        if (noise <= 0) {
            return;
        }
        recur(BLIP_EVERY_MS / noise, this::targetBlip);
        recur(SLOW_CHECK_EVERY_MS / noise, this::slowCheck);
        recur(HAPROXY_BLIP_EVERY_MS / noise, this::serverBlip);
    }

    private void recur(double meanMs, Runnable action) {
        w.at(w.now() + Math.round(dice.exponential(meanMs)), () -> {
            action.run();
            recur(meanMs, action);
        });
    }

    private void targetBlip() {
        List<AlbTarget> candidates = new ArrayList<>();
        AlbTargetGroup tg = dice.chance(0.75) ? w.alb.web : w.alb.api;
        for (AlbTarget t : tg.active()) {
            if (t.healthy()) {
                candidates.add(t);
            }
        }
        if (candidates.isEmpty()) {
            return;
        }
        AlbTarget t = candidates.get(dice.index(candidates.size()));
        boolean longOne = dice.chance(0.3);
        t.blipUntil = w.now() + Math.round(longOne ? dice.uniform(60_000, 150_000) : dice.uniform(4_000, 14_000));
        t.blipTimesOut = dice.chance(0.5);
    }

    private void slowCheck() {
        List<AlbTarget> targets = w.alb.web.active();
        if (!targets.isEmpty()) {
            targets.get(dice.index(targets.size())).slowNextCheck = dice.uniform(3, 6);
        }
    }

    private void serverBlip() {
        HaproxyModel.Host h = w.haproxy.hosts.get(dice.index(w.haproxy.hosts.size()));
        HaproxyModel.Frontend f = h.frontends.get(dice.index(h.frontends.size()));
        HaproxyModel.ServerView s = f.backend.servers.get(dice.index(f.backend.servers.size()));
        s.blipUntil = w.now() + Math.round(dice.chance(0.2) ? dice.uniform(7_000, 20_000) : dice.uniform(1_500, 4_500));
    }
}
