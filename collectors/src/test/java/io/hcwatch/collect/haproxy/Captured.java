package io.hcwatch.collect.haproxy;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The answers captured from the real HAProxy 2.6 (src/test/resources/haproxy-2.6/README.md), and edits of them. */
final class Captured {

    private Captured() {
    }

    static String file(String name) {
        try (InputStream in = Captured.class.getResourceAsStream("/haproxy-2.6/" + name)) {
            if (in == null) {
                throw new IllegalStateException("no captured file " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The answer to "show info;show stat" as HAProxy gives it on one connection. */
    static String answer() {
        return file("show-info.txt") + file("show-stat.csv");
    }

    static String answer(String info, String stat) {
        return info + stat;
    }

    /** {@code csv} with one field of one row (by pxname, svname) set to {@code value}. */
    static String withField(String csv, String pxname, String svname, String column, String value) {
        List<String> lines = new ArrayList<>(Arrays.asList(csv.split("\n", -1)));
        List<String> header = Arrays.asList(lines.get(0).substring(2).split(",", -1));
        int col = header.indexOf(column);
        if (col < 0) {
            throw new IllegalArgumentException("no column " + column);
        }
        boolean found = false;
        for (int i = 1; i < lines.size(); i++) {
            String[] f = lines.get(i).split(",", -1);
            if (f.length == header.size() && f[0].equals(pxname) && f[1].equals(svname)) {
                f[col] = value;
                lines.set(i, String.join(",", f));
                found = true;
            }
        }
        if (!found) {
            throw new IllegalArgumentException("no row " + pxname + "/" + svname);
        }
        return String.join("\n", lines);
    }

    /** {@code info} with one "Name: value" line changed. */
    static String withInfo(String info, String name, String value) {
        String replaced = info.replaceFirst("(?m)^" + name + ": .*$", name + ": " + value);
        if (replaced.equals(info)) {
            throw new IllegalArgumentException("no info line " + name);
        }
        return replaced;
    }

    /** {@code csv} with its columns in reverse order and one column HAProxy does not have. */
    static String reorderedWithExtraColumn(String csv) {
        StringBuilder out = new StringBuilder();
        for (String line : csv.split("\n", -1)) {
            if (line.isEmpty()) {
                out.append('\n');
                continue;
            }
            boolean header = line.startsWith("# ");
            List<String> f = new ArrayList<>(Arrays.asList((header ? line.substring(2) : line).split(",", -1)));
            f.remove(f.size() - 1); // the empty field after the trailing comma
            java.util.Collections.reverse(f);
            f.add(header ? "future_column" : "42");
            out.append(header ? "# " : "").append(String.join(",", f)).append(",\n");
        }
        return out.substring(0, out.length() - 1);
    }

    /** {@code csv} without one column. */
    static String withoutColumn(String csv, String column) {
        List<String> lines = Arrays.asList(csv.split("\n", -1));
        int col = Arrays.asList(lines.get(0).substring(2).split(",", -1)).indexOf(column);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (!line.isEmpty()) {
                boolean header = i == 0;
                List<String> f = new ArrayList<>(Arrays.asList((header ? line.substring(2) : line).split(",", -1)));
                f.remove(col);
                line = (header ? "# " : "") + String.join(",", f);
            }
            out.append(line).append(i < lines.size() - 1 ? "\n" : "");
        }
        return out.toString();
    }
}
