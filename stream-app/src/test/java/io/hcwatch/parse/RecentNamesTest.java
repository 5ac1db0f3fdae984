package io.hcwatch.parse;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class RecentNamesTest {

    private final RecentNames names = new RecentNames();

    @Test
    void aNameThatRecursInAnotherLineIsTheSameString() {
        String first = names.of("app/prod-web/50dc6c495c0c9188 10.0.1.7:8080", 0, 29);
        String again = names.of("x app/prod-web/50dc6c495c0c9188", 2, 31);
        assertThat(first).isEqualTo("app/prod-web/50dc6c495c0c9188").isSameAs(again);
    }

    /** Same length and last two characters: one set of four, so the fifth name pushes out the first. */
    @Test
    void aSetHoldsFourNamesAndTakesAFifthInTurn() {
        String[] held = new String[5];
        for (int i = 0; i < 5; i++) {
            held[i] = names.of("web" + i + "-01", 0, 7);
            assertThat(held[i]).isEqualTo("web" + i + "-01");
        }
        for (int i = 1; i < 5; i++) {
            assertThat(names.of(" web" + i + "-01", 1, 8)).isSameAs(held[i]);
        }
        String first = names.of("web0-01", 0, 7);
        assertThat(first).isEqualTo("web0-01").isNotSameAs(held[0]);
    }

    @Test
    void emptyAndLongTextsAreCopied() {
        String line = " " + "x".repeat(200);
        assertThat(names.of(line, 1, 201)).isEqualTo(line.substring(1)).isNotSameAs(names.of(line, 1, 201));
        assertThat(names.of("abc", 1, 1)).isEmpty();
    }

    /** Whatever it held before, the text comes back as the line has it. */
    @Property(tries = 300)
    void givesTheTextOfTheRange(@ForAll @IntRange(min = 0, max = 5000) int seed) {
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        for (int i = 0; i < 200; i++) {
            String line = "10.0." + random.nextInt(3) + "." + random.nextInt(12) + ":" + (8080 + random.nextInt(2)) + " srv"
                    + random.nextInt(300);
            int from = random.nextInt(line.length());
            int to = from + random.nextInt(line.length() - from + 1);
            assertThat(names.of(line, from, to)).isEqualTo(line.substring(from, to));
        }
    }
}
