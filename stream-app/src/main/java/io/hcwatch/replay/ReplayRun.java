package io.hcwatch.replay;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.ConfigKind;
import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.avro.v1.Incident;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.config.Settings;
import io.hcwatch.input.Decoded;
import io.hcwatch.parse.HaproxyLogFormats;
import io.hcwatch.parse.LbConfigJson;
import io.hcwatch.parse.LogDates;
import io.hcwatch.parse.ParseResult;
import io.hcwatch.parse.RejectReason;
import io.hcwatch.topology.Decoder;
import io.hcwatch.topology.Decoders;
import io.hcwatch.topology.Source;
import io.hcwatch.topology.TopologyConfig;
import io.hcwatch.topology.Topics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Consumer;

/**
 * An offline backtest: reads files of every source, merges them into one event-time order
 * (each file is taken to be in time order, as load balancers write them), and runs them through
 * the topology's processors. Each line is decoded once: the merge needs its event time, and the
 * processor reuses that very result.
 */
public final class ReplayRun {

    /** Lines decoded ahead at a time from a file whose lines decode alone, unless {@link #decodeAhead} says otherwise. */
    private static final int BLOCK = 256;

    private final ReplayInputs inputs;
    private final Settings settings;
    private final LogDates dates;
    private final HaproxyLogFormats logFormats;
    private int decodeAhead = BLOCK;

    public ReplayRun(ReplayInputs inputs, Settings settings, Clock clock) {
        this(inputs, settings, LogDates.live(clock));
    }

    /** @param dates completes HAProxy dates without a year or zone (replay --year, --zone) */
    public ReplayRun(ReplayInputs inputs, Settings settings, LogDates dates) {
        this(inputs, settings, dates, HaproxyLogFormats.none());
    }

    /** @param logFormats the log-formats HAProxy frontends write in (replay --log-format) */
    public ReplayRun(ReplayInputs inputs, Settings settings, LogDates dates, HaproxyLogFormats logFormats) {
        this.inputs = inputs;
        this.settings = settings;
        this.dates = dates;
        this.logFormats = logFormats;
    }

    /** Lines a file whose lines decode alone is decoded ahead of the merge (1: one at a time, as a file of HAProxy lines beside configs). */
    public ReplayRun decodeAhead(int lines) {
        if (lines < 1) {
            throw new IllegalArgumentException("decode ahead at least one line");
        }
        this.decodeAhead = lines;
        return this;
    }

    /** Runs to the end; alerts come back sorted by event time. Throws UncheckedIOException on an unreadable file. */
    public List<Alert> run(Consumer<DeadLetter> deadLetters, ReplaySummary summary) {
        return run(deadLetters, summary, i -> { });
    }

    /** As {@link #run(Consumer, ReplaySummary)}, and hands each incident page to {@code incidents} as it is made. */
    public List<Alert> run(Consumer<DeadLetter> deadLetters, ReplaySummary summary, Consumer<Incident> incidents) {
        Map<String, Object> serde = Map.of("schema.registry.url", "mock://hcwatch-replay");
        Map<Source, Decoder> standard = Decoders.standard(Topics.defaults(), serde, dates, logFormats);
        Map<Source, Remembering> decoders = new EnumMap<>(Source.class);
        standard.forEach((s, d) -> decoders.put(s, new Remembering(d)));
        Map<Source, Decoder> forPipeline = new EnumMap<>(Source.class);
        decoders.forEach(forPipeline::put);
        List<Alert> alerts = new ArrayList<>();
        ReplayPipeline pipeline = new ReplayPipeline(
                new TopologyConfig(Topics.defaults(), settings, forPipeline, serde, new SimpleMeterRegistry(), false),
                a -> {
                    alerts.add(a);
                    summary.alert(a.getType(), a.getStatus().name());
                },
                i -> {
                    summary.incident(i.getChange().name());
                    incidents.accept(i);
                },
                deadLetters, ReplayStores.DETACHED);
        PriorityQueue<Head> heads = new PriorityQueue<>();
        List<FileCursor> cursors = new ArrayList<>();
        try {
            long order = 0;
            publishFirstFormats(standard.get(Source.CONFIG));
            for (Map.Entry<Source, List<Path>> e : inputs.files().entrySet()) {
                for (Path file : e.getValue()) {
                    FileCursor c = new FileCursor(e.getKey(), file, decoders.get(e.getKey()), order++,
                            decodesAlone(e.getKey()) ? decodeAhead : 1);
                    cursors.add(c);
                    Head h = c.next(summary);
                    if (h != null) {
                        heads.add(h);
                    }
                }
            }
            while (!heads.isEmpty()) {
                Head h = heads.poll();
                decoders.get(h.cursor.source).remember(h.raw, h.result);
                pipeline.feed(h.cursor.source, h.raw, h.eventTime, h.cursor.file.toString(), h.line);
                Head next = h.cursor.next(summary);
                if (next != null) {
                    heads.add(next);
                }
            }
            pipeline.finish();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            for (FileCursor c : cursors) {
                c.close();
            }
        }
        alerts.sort(Comparator.comparing(Alert::getEventTime));
        return alerts;
    }

    /**
     * Each HAProxy frontend's first lb-config record of the config files, through the config decoder
     * before any line is read: the merge reads a line ahead of the configs timed before it, and a
     * line that does not parse is taken first, so without this a frontend's first lines would not
     * know its format. The later records change the format as the merge reaches them.
     */
    private void publishFirstFormats(Decoder configs) throws IOException {
        LbConfigJson json = new LbConfigJson();
        Map<String, byte[]> first = new HashMap<>();
        Map<String, Instant> firstTs = new HashMap<>();
        for (Path file : inputs.files().getOrDefault(Source.CONFIG, List.of())) {
            try (LineReader reader = new LineReader(file)) {
                for (byte[] raw = reader.next(); raw != null; raw = reader.next()) {
                    if (json.parse(new String(raw, StandardCharsets.UTF_8)) instanceof ParseResult.Ok<LbConfig> ok
                            && ok.value().getKind() == ConfigKind.haproxy_frontend) {
                        String id = ok.value().getId();
                        if (!firstTs.containsKey(id) || ok.value().getTs().isBefore(firstTs.get(id))) {
                            first.put(id, raw);
                            firstTs.put(id, ok.value().getTs());
                        }
                    }
                }
            }
        }
        first.values().forEach(configs::decode);
    }

    /**
     * Whether a source's lines decode the same whatever was decoded of the other files before them:
     * all but HAProxy's, whose decoder reads the log-formats the lb-config records published as they
     * were decoded, and the configs themselves, when both are replayed.
     */
    private boolean decodesAlone(Source source) {
        boolean configs = !inputs.files().getOrDefault(Source.CONFIG, List.of()).isEmpty();
        boolean haproxy = !inputs.files().getOrDefault(Source.HAPROXY, List.of()).isEmpty();
        return !(configs && haproxy) || (source != Source.HAPROXY && source != Source.CONFIG);
    }

    /**
     * The next line of one file with its decoded form, in the merge's order: by event time, then by
     * file. Compared field by field, not by a chain of key-extracting comparators: the merge compares
     * for every line, and the chain was 4% of replay in JFR.
     */
    private record Head(FileCursor cursor, byte[] raw, ParseResult<? extends Decoded> result, long eventTime,
                        long line, long order) implements Comparable<Head> {

        @Override
        public int compareTo(Head other) {
            return eventTime != other.eventTime ? Long.compare(eventTime, other.eventTime) : Long.compare(order, other.order);
        }
    }

    /**
     * One file's lines in order, decoded ahead in blocks where decoding depends on no other file: a
     * block of one parser's lines runs with that parser's code and data hot, where one line at a time
     * between the other files' lines and the detectors decoded ALB lines 1.7 times slower (JFR of
     * bench replay). HAProxy lines read the log-formats that lb-config records publish as they are
     * decoded, so where configs are replayed too those two stay one line ahead, as the merge needs.
     */
    private static final class FileCursor implements AutoCloseable {
        final Source source;
        final Path file;
        final Decoder decoder;
        final long order;
        final LineReader reader;
        private final Head[] ahead;
        private int next;
        private int held;
        long lastEventTime = Long.MIN_VALUE;

        /** @param ahead lines decoded at a time: 1 unless they decode the same whatever of the other files was decoded before them */
        FileCursor(Source source, Path file, Decoder decoder, long order, int ahead) throws IOException {
            this.source = source;
            this.file = file;
            this.decoder = decoder;
            this.order = order;
            this.reader = new LineReader(file);
            this.ahead = new Head[ahead];
        }

        Head next(ReplaySummary summary) throws IOException {
            if (next == held) {
                next = 0;
                held = 0;
                Head h;
                while (held < ahead.length && (h = decodeNext(summary)) != null) {
                    ahead[held++] = h;
                }
                if (held == 0) {
                    return null;
                }
            }
            Head h = ahead[next];
            ahead[next++] = null;
            return h;
        }

        private Head decodeNext(ReplaySummary summary) throws IOException {
            byte[] raw = reader.next();
            if (raw == null) {
                return null;
            }
            summary.read(source);
            ParseResult<? extends Decoded> result;
            try {
                result = decoder.decode(raw);
            } catch (RuntimeException e) {
                result = ParseResult.rejected(RejectReason.INTERNAL_ERROR, "decoder failed: " + e);
            }
            long t = -1;
            if (result instanceof ParseResult.Ok<? extends Decoded> ok) {
                summary.outcome(source, 1);
                t = ok.value().eventTime();
            } else if (result instanceof ParseResult.Rejected<?>) {
                summary.outcome(source, 2);
            } else {
                summary.outcome(source, 3);
            }
            if (t >= 0) {
                lastEventTime = Math.max(lastEventTime, t);
            } else {
                // rejected lines keep their place in the file's time order
                t = lastEventTime == Long.MIN_VALUE ? 0 : lastEventTime;
            }
            return new Head(this, raw, result, t, reader.lineNumber(), order);
        }

        @Override
        public void close() {
            try {
                reader.close();
            } catch (IOException ignored) {
                // closing a file we only read
            }
        }
    }

    /** Hands the pipeline the result the merge already computed for the same bytes. */
    private static final class Remembering implements Decoder {
        private final Decoder inner;
        private byte[] raw;
        private ParseResult<? extends Decoded> result;

        Remembering(Decoder inner) {
            this.inner = inner;
        }

        void remember(byte[] raw, ParseResult<? extends Decoded> result) {
            this.raw = raw;
            this.result = result;
        }

        @Override
        public ParseResult<? extends Decoded> decode(byte[] value) {
            if (value == raw) {
                return result;
            }
            return inner.decode(value);
        }
    }
}
