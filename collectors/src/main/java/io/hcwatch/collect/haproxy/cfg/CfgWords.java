package io.hcwatch.collect.haproxy.cfg;

import java.util.ArrayList;
import java.util.List;

/**
 * One line of haproxy.cfg split into words as HAProxy's own parser splits it (cfgparse.c
 * parse_line, 2.6): blanks separate words; a backslash makes the next character literal (and
 * {@code \t \n \r \xHH} the control characters); double quotes keep blanks and allow escapes;
 * single quotes keep everything literally; {@code #} outside quotes starts a comment. Environment
 * variables ({@code "${VAR}"}) are left as written: the collector does not see HAProxy's environment.
 */
final class CfgWords {

    private CfgWords() {
    }

    static List<String> split(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = null;
        char quote = 0;
        int n = line.length();
        for (int i = 0; i < n; i++) {
            char c = line.charAt(i);
            if (quote == '\'') {
                if (c == '\'') {
                    quote = 0;
                } else {
                    word.append(c);
                }
                continue;
            }
            if (c == '\\' && i + 1 < n) {
                if (word == null) {
                    word = new StringBuilder();
                }
                i = escape(line, i + 1, word);
                continue;
            }
            if (quote == '"') {
                if (c == '"') {
                    quote = 0;
                } else {
                    word.append(c);
                }
                continue;
            }
            if (c == '#') {
                break;
            }
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
                if (word != null) {
                    words.add(word.toString());
                    word = null;
                }
                continue;
            }
            if (word == null) {
                word = new StringBuilder();
            }
            if (c == '"' || c == '\'') {
                quote = c;
            } else {
                word.append(c);
            }
        }
        if (word != null) {
            words.add(word.toString());
        }
        return words;
    }

    /** Appends the escaped character at {@code at}; returns the index of its last character. */
    private static int escape(String line, int at, StringBuilder word) {
        char e = line.charAt(at);
        switch (e) {
            case 't' -> word.append('\t');
            case 'n' -> word.append('\n');
            case 'r' -> word.append('\r');
            case 'x' -> {
                if (at + 2 < line.length() && hex(line.charAt(at + 1)) >= 0 && hex(line.charAt(at + 2)) >= 0) {
                    word.append((char) (hex(line.charAt(at + 1)) * 16 + hex(line.charAt(at + 2))));
                    return at + 2;
                }
                word.append('\\').append(e);
            }
            case ' ', '\\', '#', '"', '\'', '$' -> word.append(e);
            // HAProxy keeps an unknown escape as written
            default -> word.append('\\').append(e);
        }
        return at;
    }

    private static int hex(char c) {
        return Character.digit(c, 16);
    }
}
