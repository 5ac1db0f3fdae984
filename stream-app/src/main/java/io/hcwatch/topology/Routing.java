package io.hcwatch.topology;

import io.hcwatch.avro.internal.TargetSeen;
import io.hcwatch.avro.v1.ConfigKind;
import io.hcwatch.avro.v1.HaproxyRequest;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.input.AlbTrafficLine;
import io.hcwatch.input.BackendNotice;
import io.hcwatch.input.Check;
import io.hcwatch.input.Decoded;
import io.hcwatch.input.HaproxyLine;
import io.hcwatch.input.LoadBalancerConfig;
import io.hcwatch.input.Poll;
import io.hcwatch.input.UnreadableCheck;
import io.hcwatch.parse.TargetIdentity;
import io.hcwatch.topology.Routed.Destination;
import java.util.function.LongConsumer;

/**
 * Where each kind of decoded record goes: log lines and checks into this partition's seconds
 * ({@link Summarising}), everything else straight to the monitor keyed by what it is about. Names
 * the HAProxy host of log lines that name none ({@link HaproxyHosts}).
 */
final class Routing implements Decoded.Cases<Void> {

    private final Source source;
    private final Summarising seconds;
    private final Outbox out;
    private final FeedHeartbeats heartbeats;
    private final HaproxyHosts hosts;
    private final LongConsumer read;
    private final Runnable sentOn;

    /**
     * @param read   told the event time of every record read (progress, arrival lag)
     * @param sentOn told when a record went on at once, so progress may have moved
     */
    Routing(Source source, Summarising seconds, Outbox out, FeedHeartbeats heartbeats, HaproxyHosts hosts, LongConsumer read,
            Runnable sentOn) {
        this.source = source;
        this.seconds = seconds;
        this.out = out;
        this.heartbeats = heartbeats;
        this.hosts = hosts;
        this.read = read;
        this.sentOn = sentOn;
    }

    /** The HAProxy host an LbConfig is about: its host, or the host part of its id ({@code host/frontend}). */
    static String hostOf(LbConfig c) {
        if (c.getHost() != null) {
            return c.getHost();
        }
        int slash = c.getId().indexOf('/');
        return slash < 0 ? c.getId() : c.getId().substring(0, slash);
    }

    @Override
    public Void albLine(AlbTrafficLine line) {
        read.accept(line.time());
        seconds.add(line);
        return null;
    }

    @Override
    public Void haproxyLine(HaproxyLine line) {
        HaproxyRequest h = line.request();
        read.accept(line.eventTime());
        if (HaproxyHosts.unnamed(h.getHost())) {
            String host = hosts.forUnnamed();
            if (host != null) {
                h.setHost(host);
            }
        }
        seconds.add(line);
        return null;
    }

    @Override
    public Void check(Check check) {
        read.accept(check.eventTime());
        seconds.add(check);
        return null;
    }

    @Override
    public Void backendNotice(BackendNotice notice) {
        read.accept(notice.eventTime());
        // a server's state change must not overtake the checks read before it
        seconds.releaseChecks();
        out.send(Destination.FLEET, notice.event().getBackend(), notice, notice.eventTime());
        sentOn.run();
        return null;
    }

    /** Configurations pace nothing: they are not read for progress. */
    @Override
    public Void config(LoadBalancerConfig config) {
        LbConfig c = config.config();
        if (c.getKind() == ConfigKind.target_group) {
            seconds.releaseChecks();
            out.send(Destination.FLEET, c.getId(), config, config.eventTime());
        } else {
            String host = hostOf(c);
            hosts.named(host);
            out.send(Destination.HOST, host, config, config.eventTime());
        }
        return null;
    }

    /** A poll is already one second of one host: nothing to sum, so it goes on at once, with its host's heartbeat. */
    @Override
    public Void poll(Poll poll) {
        String host = poll.stats().getHost();
        long ts = poll.eventTime();
        read.accept(ts);
        hosts.named(host);
        out.send(Destination.HOST, host, poll, ts);
        sentOn.run();
        heartbeats.polled(host, ts, served(poll.stats()));
        return null;
    }

    /**
     * Whether HAProxy served sessions in the interval this poll covers: false only when every
     * frontend's stot_delta says none (the first poll and a reload have no deltas: unknown, served).
     */
    static boolean served(io.hcwatch.avro.v1.HaproxyStats stats) {
        for (io.hcwatch.avro.v1.FrontendStats f : stats.getFrontends()) {
            if (f.getStotDelta() == null || f.getStotDelta() > 0) {
                return true;
            }
        }
        return stats.getFrontends().isEmpty();
    }

    /**
     * A health check that did not parse still names its target: the fleet monitor learns that the
     * target exists and that its state is unknown, so it is neither forgotten nor counted unhealthy.
     */
    void unreadable(TargetIdentity id, long time) {
        out.send(Destination.FLEET, id.targetGroup(), new UnreadableCheck(new TargetSeen(id.targetGroup(), id.target(), time,
                source.id())), time);
    }
}
