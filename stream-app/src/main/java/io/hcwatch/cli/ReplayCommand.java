package io.hcwatch.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.Incident;
import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.config.Settings;
import io.hcwatch.parse.DeclaredLogFormats;
import io.hcwatch.parse.HaproxyLogFormats;
import io.hcwatch.parse.LogDates;
import io.hcwatch.parse.LogFormatException;
import io.hcwatch.replay.ReplayInputs;
import io.hcwatch.replay.ReplayRun;
import io.hcwatch.replay.ReplaySummary;
import io.hcwatch.serde.AlertJson;
import io.hcwatch.serde.IncidentJson;
import io.hcwatch.topology.Source;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./hcwatch replay}: the same topology, offline, on files. Alerts (or with {@code --incidents}
 * the incident pages) go to stdout as JSON lines in event-time order, a summary to stderr, rejected
 * lines to {@code --dlq}.
 */
@Command(name = "replay", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Backtest the detectors on log files (.gz too); alerts as JSON lines on stdout, a summary on stderr.")
public final class ReplayCommand implements Callable<Integer> {

    @Option(names = "--alb", paramLabel = "FILE", description = "ALB access-log file (repeatable)")
    List<Path> alb = new ArrayList<>();

    @Option(names = "--alb-health", paramLabel = "FILE", description = "ALB health-check-log file (repeatable)")
    List<Path> albHealth = new ArrayList<>();

    @Option(names = "--haproxy", paramLabel = "FILE", description = "HAProxy log file, syslog prefix optional (repeatable)")
    List<Path> haproxy = new ArrayList<>();

    @Option(names = "--health", paramLabel = "FILE", description = "HealthCheckResult JSON lines (repeatable)")
    List<Path> health = new ArrayList<>();

    @Option(names = "--haproxy-stats", paramLabel = "FILE", description = "HaproxyStats JSON lines, as collect haproxy writes them (repeatable)")
    List<Path> haproxyStats = new ArrayList<>();

    @Option(names = "--config", paramLabel = "FILE", description = "LbConfig JSON lines (repeatable)")
    List<Path> config = new ArrayList<>();

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Override a detector setting, e.g. correlated.min-fraction=0.2 (repeatable)")
    Map<String, String> set = new LinkedHashMap<>();

    @Option(names = "--log-format", paramLabel = "FRONTEND=FORMAT",
            description = "The log-format a frontend's HAProxy lines are in, as haproxy.cfg gives it after log-format,"
                    + " or httplog, httpslog, tcplog, clf; FRONTEND * is every other frontend (repeatable)")
    Map<String, String> logFormats = new LinkedHashMap<>();

    @Option(names = "--dlq", paramLabel = "FILE", description = "Write every rejected line here as JSON {source, file, line, error, raw}")
    Path dlq;

    @Option(names = "--year", paramLabel = "YYYY",
            description = "Year of HAProxy dates written without one (RFC 3164 and console prefixes);"
                    + " default: the latest such date not more than a day ahead of now")
    String year;

    @Option(names = "--zone", paramLabel = "ZONE",
            description = "Zone of HAProxy dates written without an offset (accept dates, RFC 3164 prefixes):"
                    + " an IANA zone such as Europe/Berlin or an offset such as +01:00 (default UTC)")
    String zone;

    @Option(names = "--incidents", description = "Print the incidents' pages (opened, updated, resolved) instead of the alerts")
    boolean incidents;

    @Override
    public Integer call() throws IOException {
        ReplayInputs inputs = new ReplayInputs();
        add(inputs, Source.ALB, alb);
        add(inputs, Source.ALB_HEALTH, albHealth);
        add(inputs, Source.HAPROXY, haproxy);
        add(inputs, Source.HEALTH, health);
        add(inputs, Source.HAPROXY_STATS, haproxyStats);
        add(inputs, Source.CONFIG, config);
        if (inputs.isEmpty()) {
            throw new UsageException("nothing to replay: give at least one of --alb, --alb-health, --haproxy, --health, --haproxy-stats, --config");
        }
        Settings settings;
        try {
            settings = Settings.defaults().with(set);
            io.hcwatch.alert.LifecycleSettings.from(settings);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--set " + e.getMessage());
        }
        LogDates dates = new LogDates(Clock.system(zoneId()), yearNumber());
        HaproxyLogFormats formats;
        try {
            formats = DeclaredLogFormats.of(logFormats, frontend -> "--log-format " + frontend);
        } catch (LogFormatException e) {
            throw new UsageException(e.getMessage());
        }
        long started = System.nanoTime();
        ReplaySummary summary = new ReplaySummary();
        List<Alert> alerts;
        List<Incident> pages = new ArrayList<>();
        try (DeadLetterFile dead = dlq == null ? null : new DeadLetterFile(dlq)) {
            alerts = new ReplayRun(inputs, settings, dates, formats)
                    .run(d -> {
                        if (dead != null) {
                            dead.write(d);
                        }
                    }, summary, pages::add);
        } catch (UncheckedIOException e) {
            throw new UsageException("cannot read input: " + e.getCause().getMessage());
        }
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, StandardCharsets.UTF_8);
        if (incidents) {
            // stable: one incident's pages keep their order when two share an event time
            pages.sort(Comparator.comparing(Incident::getEventTime));
            pages.forEach(i -> out.println(IncidentJson.toJson(i)));
        } else {
            for (Alert a : alerts) {
                out.println(AlertJson.toJson(a));
            }
        }
        out.flush();
        summary.print(System.err, (System.nanoTime() - started) / 1_000_000);
        return 0;
    }

    /** Read here rather than by picocli's converter, so a bad value gets hcwatch's own one-line reason. */
    private Integer yearNumber() {
        if (year == null) {
            return null;
        }
        if (!year.matches("[0-9]{4}")) {
            throw new UsageException("--year: '" + year + "' is not a year (four digits, e.g. 2025)");
        }
        return Integer.valueOf(year);
    }

    private ZoneId zoneId() {
        if (zone == null) {
            return ZoneOffset.UTC;
        }
        try {
            return ZoneId.of(zone);
        } catch (DateTimeException e) {
            throw new UsageException("--zone: '" + zone + "' is not a zone (an IANA zone such as Europe/Berlin, or an"
                    + " offset such as +01:00 or UTC)");
        }
    }

    private static void add(ReplayInputs inputs, Source source, List<Path> files) {
        for (Path f : files) {
            if (!Files.isRegularFile(f) || !Files.isReadable(f)) {
                throw new UsageException("cannot read --" + source.id() + " file " + f);
            }
            inputs.add(source, f);
        }
    }

    /** --dlq: one JSON object per rejected line. */
    static final class DeadLetterFile implements AutoCloseable {
        private final Writer writer;
        private final JsonGenerator json;

        DeadLetterFile(Path path) {
            try {
                writer = new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(path), StandardCharsets.UTF_8));
                json = new JsonFactory().createGenerator(writer);
                json.setRootValueSeparator(null);
            } catch (IOException e) {
                throw new UsageException("cannot write --dlq file " + path + ": " + e.getMessage());
            }
        }

        void write(DeadLetter d) {
            try {
                json.writeStartObject();
                json.writeStringField("source", d.getSource());
                json.writeStringField("file", d.getTopic());
                json.writeNumberField("line", d.getOffset() == null ? 0 : d.getOffset());
                json.writeStringField("error", d.getReason() + ": " + d.getError());
                byte[] raw = bytes(d.getRaw());
                String text = utf8(raw);
                json.writeStringField("raw", text != null ? text : Base64.getEncoder().encodeToString(raw));
                if (text == null) {
                    json.writeStringField("raw_encoding", "base64");
                }
                json.writeEndObject();
                json.flush();
                writer.write('\n');
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private static byte[] bytes(ByteBuffer b) {
            if (b == null) {
                return new byte[0];
            }
            ByteBuffer dup = b.duplicate();
            byte[] out = new byte[dup.remaining()];
            dup.get(out);
            return out;
        }

        private static String utf8(byte[] raw) {
            try {
                return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(raw)).toString();
            } catch (CharacterCodingException e) {
                return null;
            }
        }

        @Override
        public void close() {
            try {
                json.close();
                writer.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
