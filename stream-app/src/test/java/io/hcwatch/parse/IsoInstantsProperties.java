package io.hcwatch.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@link IsoInstants#parseUtc} is a shortcut in front of the JDK's {@code OffsetDateTime.parse} in the
 * JSON readers, so it may only take text the JDK reads, and must read it to the same instant. The
 * oracle is the JDK's parser; the text is built near the form (digits anywhere, separators, fraction
 * lengths, zones and out-of-range fields the JDK refuses).
 */
class IsoInstantsProperties {

    @Property(tries = 3000)
    void whatTheShortcutReadsTheJdkReadsToTheSameInstant(@ForAll("nearlyIso") String text) {
        Instant shortcut = IsoInstants.parseUtc(text);
        Instant jdk;
        try {
            jdk = OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            jdk = null;
        }
        if (shortcut != null) {
            assertThat(shortcut).as(text).isEqualTo(jdk);
        }
    }

    @Property(tries = 1000)
    void theWritersOwnFormTakesTheShortcut(@ForAll("utcInstants") Instant instant) {
        // Instant.toString is what every writer of the JSON forms uses for ts
        assertThat(IsoInstants.parseUtc(instant.toString())).isEqualTo(instant);
    }

    @Provide
    Arbitrary<Instant> utcInstants() {
        return Arbitraries.longs().between(Instant.parse("0001-01-01T00:00:00Z").getEpochSecond(),
                Instant.parse("9999-12-31T23:59:59Z").getEpochSecond())
                .flatMap(s -> Arbitraries.integers().between(0, 999_999_999)
                        .flatMap(n -> Arbitraries.of(n, n / 1_000_000 * 1_000_000, 0).map(x -> Instant.ofEpochSecond(s, x))));
    }

    @Provide
    Arbitrary<String> nearlyIso() {
        Arbitrary<String> year = Arbitraries.of("2026", "0000", "0001", "9999", "1970", "2024", "2100", "20x6", "+2026");
        Arbitrary<String> month = Arbitraries.of("01", "02", "12", "13", "00", "1a");
        Arbitrary<String> day = Arbitraries.of("01", "28", "29", "30", "31", "32", "00");
        Arbitrary<String> time = Arbitraries.of("00:00:00", "23:59:59", "14:32:45", "24:00:00", "23:60:00", "23:59:60",
                "14:32", "1:2:3");
        Arbitrary<String> sep = Arbitraries.of("T", "T", "T", " ", "t");
        Arbitrary<String> fraction = Arbitraries.strings().withChars("0123456789").ofMinLength(0).ofMaxLength(11)
                .flatMap(d -> Arbitraries.of("." + d, "." + d, "," + d, d.isEmpty() ? "" : "." + d + "x"));
        Arbitrary<String> zone = Arbitraries.of("Z", "Z", "z", "+00:00", "+01:00", "-18:00", "+18:30", "+0100", "", "ZZ");
        return Combinators.combine(year, month, day, sep, time, fraction, zone)
                .as((y, mo, d, s, t, f, z) -> y + "-" + mo + "-" + d + s + t + f + z);
    }
}
