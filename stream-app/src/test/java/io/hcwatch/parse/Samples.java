package io.hcwatch.parse;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/** The project's own sample lines in src/test/resources/samples ({@code #} lines are comments). */
final class Samples {

    private Samples() {
    }

    static List<String> lines(String name) {
        try (InputStream in = Samples.class.getResourceAsStream("/samples/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no sample file " + name);
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return Arrays.stream(text.split("\n")).filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Lines of a {@code expected<TAB>line} file as [expected, line] pairs. */
    static List<String[]> tabbed(String name) {
        return lines(name).stream().map(l -> l.split("\t", 2)).toList();
    }
}
