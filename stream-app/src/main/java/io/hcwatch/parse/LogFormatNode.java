package io.hcwatch.parse;

/**
 * One piece of a compiled log-format: text written as is, a separator (a run of spaces, which
 * HAProxy writes as one space and drops after a field that wrote nothing), or a field.
 *
 * @param text    the literal text (LITERAL only)
 * @param alias   what the field logs (FIELD only)
 * @param name    the field's name in a JSON-encoded format: {@code %(name)}, else the alias
 * @param quoted  +Q: the value is in double quotes
 * @param hex     +X: numbers and addresses in hexadecimal
 * @param escaped +E: {@code "}, {@code \} and {@code ]} in the value are preceded by a backslash
 */
record LogFormatNode(Kind kind, String text, LogFormatAlias alias, String name, boolean quoted, boolean hex,
                     boolean escaped) {

    enum Kind { LITERAL, SEPARATOR, FIELD }

    static LogFormatNode literal(String text) {
        return new LogFormatNode(Kind.LITERAL, text, null, null, false, false, false);
    }

    static LogFormatNode separator() {
        return new LogFormatNode(Kind.SEPARATOR, " ", null, null, false, false, false);
    }

    static LogFormatNode field(LogFormatAlias alias, String name, boolean quoted, boolean hex, boolean escaped) {
        return new LogFormatNode(Kind.FIELD, null, alias, name, quoted, hex, escaped);
    }

    /** A value whose end the value itself shows, so nothing needs to follow it in the format. */
    boolean endsItself() {
        return quoted || alias.shape == LogFormatAlias.Shape.LOCAL_DATE || alias.shape == LogFormatAlias.Shape.ZONED_DATE
                || alias.shape == LogFormatAlias.Shape.BRACES;
    }
}
