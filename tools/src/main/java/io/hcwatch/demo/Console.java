package io.hcwatch.demo;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertScope;
import io.hcwatch.avro.v1.AlertStatus;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The demo's terminal: steps of the start-up, a status line that keeps redrawing itself on a
 * terminal, and alerts as they arrive, coloured by severity. Plain text when the output is not a
 * terminal or NO_COLOR is set (https://no-color.org).
 */
final class Console {

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);
    private static final String RESET = "\u001b[0m";
    private static final String BOLD = "\u001b[1m";
    private static final String DIM = "\u001b[2m";
    private static final String RED = "\u001b[31m";
    private static final String GREEN = "\u001b[32m";
    private static final String YELLOW = "\u001b[33m";
    private static final String MAGENTA = "\u001b[35m";
    private static final String CYAN = "\u001b[36m";

    private final PrintStream out;
    private final boolean color;
    private final boolean live;
    private String status = "";

    /**
     * @param color ANSI colours
     * @param live  a terminal: the status line is redrawn in place; otherwise it is printed now and then
     */
    Console(PrintStream out, boolean color, boolean live) {
        this.out = out;
        this.color = color;
        this.live = live;
    }

    boolean live() {
        return live;
    }

    synchronized void line(String text) {
        clearStatus();
        out.println(text);
        redrawStatus();
    }

    synchronized void heading(String text) {
        line(paint(BOLD, text));
    }

    synchronized void note(String text) {
        line(paint(DIM, text));
    }

    /** A start-up step that took {@code millis}. */
    synchronized void step(String what, long millis) {
        line("  " + paint(GREEN, "✔") + " " + what + paint(DIM, "  (" + seconds(millis) + ")"));
    }

    synchronized void status(String text) {
        status = text;
        if (live) {
            out.print("\r\u001b[2K" + paint(DIM, text));
            out.flush();
        }
    }

    /** Prints the status line as a line of its own (for output that is not a terminal). */
    synchronized void statusLine() {
        if (!live && !status.isEmpty()) {
            out.println("  " + status);
        }
    }

    synchronized void endStatus() {
        clearStatus();
        status = "";
    }

    /** One alert notification: new alerts with their summary, severity changes and resolves on one line. */
    synchronized void alert(Alert a, Duration sinceOnset, String change) {
        String when = String.format(Locale.ROOT, "%9s  %s", signed(sinceOnset), CLOCK.format(a.getEventTime()));
        String severity = a.getSeverity().name().toUpperCase(Locale.ROOT);
        String where = scope(a.getScope());
        String diagnosis = a.getDetails().get("diagnosis");
        String tail = diagnosis == null ? "" : paint(DIM, "  diagnosis: ") + diagnosis;
        if (a.getStatus() == AlertStatus.resolved) {
            line(paint(DIM, when) + "  " + paint(GREEN, "resolved") + "  " + paint(DIM, a.getType() + "  " + where));
            return;
        }
        if (change != null) {
            line(paint(DIM, when) + "  " + paint(severityColour(a), change + " " + severity) + "  " + paint(DIM, a.getType() + "  " + where));
            return;
        }
        line(when + "  " + paint(BOLD + severityColour(a), String.format(Locale.ROOT, "%-8s", severity)) + "  "
                + paint(BOLD, a.getType()) + "  " + where + tail);
        line("                     " + a.getSummary());
    }

    private String severityColour(Alert a) {
        return switch (a.getSeverity()) {
            case critical -> RED;
            case error -> MAGENTA;
            case warning -> YELLOW;
            case info -> CYAN;
        };
    }

    static String scope(AlertScope s) {
        StringBuilder sb = new StringBuilder();
        append(sb, s.getTargetGroup());
        append(sb, s.getZone());
        if (s.getHost() != null || s.getFrontend() != null) {
            append(sb, (s.getHost() == null ? "" : s.getHost() + "/") + (s.getFrontend() == null ? "" : s.getFrontend()));
        }
        append(sb, s.getClient());
        if (sb.length() == 0) {
            append(sb, s.getLb());
        }
        return sb.toString();
    }

    private static void append(StringBuilder sb, String part) {
        if (part != null) {
            sb.append(sb.length() > 0 ? " " : "").append(part);
        }
    }

    String paint(String code, String text) {
        return color ? code + text + RESET : text;
    }

    String red(String text) {
        return paint(RED, text);
    }

    static String clock(Instant t) {
        return CLOCK.format(t);
    }

    static String signed(Duration d) {
        return (d.isNegative() ? "-" : "+") + human(d.abs());
    }

    static String human(Duration d) {
        long s = d.toSeconds();
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return s / 60 + "m" + String.format(Locale.ROOT, "%02d", s % 60) + "s";
        }
        return s / 3600 + "h" + String.format(Locale.ROOT, "%02d", s % 3600 / 60) + "m";
    }

    static String seconds(long millis) {
        return String.format(Locale.ROOT, "%.1fs", millis / 1000.0);
    }

    private void clearStatus() {
        if (live && !status.isEmpty()) {
            out.print("\r\u001b[2K");
        }
    }

    private void redrawStatus() {
        if (live && !status.isEmpty()) {
            out.print(paint(DIM, status));
        }
        out.flush();
    }
}
