package io.hcwatch.parse;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CidrNotationTest {

    /** Counts how often the parser looks at a character: the work it does, whatever the machine's speed. */
    private static final class CountingText implements CharSequence {
        private final String text;
        long reads;

        CountingText(String text) {
            this.text = text;
        }

        @Override
        public int length() {
            return text.length();
        }

        @Override
        public char charAt(int index) {
            reads++;
            return text.charAt(index);
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return new CountingText(text.substring(start, end));
        }

        @Override
        public String toString() {
            return text;
        }
    }

    // Published forms: RFC 4632 (IPv4 prefixes), RFC 4291 section 2.2-2.3 (IPv6 text and prefixes), RFC 5952 examples
    @ParameterizedTest
    @ValueSource(strings = {"10.0.1.0/24", "0.0.0.0/0", "255.255.255.255/32", "192.0.2.0/24", "2001:db8::/56",
            "2001:0DB8:0000:CD30:0000:0000:0000:0000/60", "2001:0DB8::CD30:0:0:0:0/60", "2001:0DB8:0:CD30::/60", "::/0",
            "::1/128", "fe80::/10", "FF00::/8", "2001:db8:0:1::/64", "::ffff:192.0.2.0/120", "::13.1.68.3/128",
            "1:2:3:4:5:6:7:8/128", "1::/16", "1:2:3:4:5:6:7::/112", "::2:3:4:5:6:7:8/128", "1:2:3:4:5:6:1.2.3.4/128"})
    void acceptsTheForms(String cidr) {
        assertThat(CidrNotation.isCidr(cidr)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "/", "10.0.1.0", "10.0.1.0/", "10.0.1.0/33", "10.0.256.0/24", "010.0.1.0/24", "10.0.1/24",
            "10.0.1.0.0/24", "10.0.1.0/024", "10.0.1.0/2a", "10.0.1.0/24/24", "2001:db8::/129", "2001:db8::/0128",
            "2001:db8::", ":/64", ":::/64", "2001:db8:::1/64", "1::2::3/64", "12345::/16", "1:2:3:4:5:6:7:8:9/128",
            "1:2:3:4:5:6:7/112", ":1:2:3:4:5:6:7/112", "1:2:3:4:5:6:7:/112", "2001:db8:g::/48", "::1.2.3/128",
            "::256.1.1.1/128", "1:2:3:4:5:6:7:1.2.3.4/128", "1.2.3.4::/128", "2001:db8::1.2.3.4:5/128", " 10.0.1.0/24",
            "10.0.1.0/24 ", "::/-1"})
    void refusesWhatIsNotACidr(String text) {
        assertThat(CidrNotation.isCidr(text)).isFalse();
    }

    // A hostile zone_cidrs value (a config record anyone who can write lb-config sends): a regular expression with two
    // stars around a ':' tried every split of ':::...' before failing, n*n/2 steps, minutes for a 1 MB value
    @ParameterizedTest
    @ValueSource(strings = {":", "1:", "a", "::1.", "1.", "0", "ffff:"})
    void hostileValuesCostWorkInProportionToTheirLength(String unit) {
        for (int n : new int[] {1_000, 4_000, 16_000}) {
            CountingText hostile = new CountingText(unit.repeat(n) + "/");

            assertThat(CidrNotation.isCidr(hostile)).isFalse();
            assertThat(hostile.reads).as("characters read for %d x '%s'", n, unit).isLessThanOrEqualTo(3L * hostile.length() + 8);
        }
    }
}
