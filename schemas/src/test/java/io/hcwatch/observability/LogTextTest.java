package io.hcwatch.observability;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LogTextTest {

    // the input (\\uXXXX and \\\\ decoded by unescape), and the log's text exactly
    @ParameterizedTest(name = "{2}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            web-tg                                        | web-tg                                   | a plain name is unchanged
            app/web-lb/50dc6c495c0c9188                   | app/web-lb/50dc6c495c0c9188              | an ALB id is unchanged
            zoné-ü-名前                                    | zoné-ü-名前                               | letters of any script are unchanged
            web\\u000a2026-12-02 ERROR forged             | web\\n2026-12-02 ERROR forged            | a newline cannot start a forged line
            web\\u000d\\u000a                             | web\\r\\n                                | CR LF
            a\\u0009b                                     | a\\tb                                    | tab
            \\u001b[2J\\u001b]0;owned\\u0007              | \\u001b[2J\\u001b]0;owned\\u0007         | terminal escape sequences and BEL
            x\\u007fy\\u0085z\\u009b                      | x\\u007fy\\u0085z\\u009b                 | DEL, NEL and CSI of C1
            a\\u2028b\\u2029c                             | a\\u2028b\\u2029c                        | Unicode line and paragraph separators
            safe\\u202egpj.exe                            | safe\\u202egpj.exe                       | a bidirectional override
            C:\\\\logs\\\\n                               | C:\\\\logs\\\\n                          | a backslash is doubled, so a shown \\n is always an escape
            """)
    void escapesWhatCouldForgeOrHideALogLine(String input, String shown, String why) {
        assertThat(LogText.of(unescape(input))).as(why).isEqualTo(shown);
    }

    @Test
    void aHugeNameIsCutSayingHowMuchWasLeftOut() {
        String shown = LogText.of("h".repeat(1_000_000));

        assertThat(shown).isEqualTo("h".repeat(LogText.MAX_CHARS) + "...(" + (1_000_000 - LogText.MAX_CHARS) + " more chars)");
    }

    @Test
    void nullIsShownAsNull() {
        assertThat(LogText.of(null)).isEqualTo("null");
    }

    /** The table's escapes: {@code \\uXXXX} and {@code \\\\}. */
    private static String unescape(String text) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\' && i + 1 < text.length() && text.charAt(i + 1) == 'u') {
                out.append((char) Integer.parseInt(text.substring(i + 2, i + 6), 16));
                i += 5;
            } else if (c == '\\' && i + 1 < text.length() && text.charAt(i + 1) == '\\') {
                out.append('\\');
                i++;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
