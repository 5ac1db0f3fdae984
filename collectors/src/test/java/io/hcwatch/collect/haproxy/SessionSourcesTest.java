package io.hcwatch.collect.haproxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.SlotHolder;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SessionSourcesTest {

    private static SessionSources read(String answer, Set<String> frontends, int chunk) {
        SessionSources s = new SessionSources(frontends);
        byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < bytes.length; i += chunk) {
            byte[] part = java.util.Arrays.copyOfRange(bytes, i, Math.min(bytes.length, i + chunk));
            s.read(part, part.length);
        }
        return s;
    }

    @Test
    void haproxysAnswerCountsEachFrontendsSessionsByClientWhateverTheChunksItArrivesIn() {
        String answer = Captured.file("show-sess.txt");
        for (int chunk : new int[] {1, 7, 64 * 1024}) {
            SessionSources s = read(answer, Set.of("fe_web"), chunk);

            assertThat(s.refusal()).isNull();
            assertThat(s.top("fe_web", 10)).as("chunks of " + chunk)
                    .containsExactly(new SlotHolder("127.0.0.1", 3), new SlotHolder("0:0:0:0::/64", 1));
            assertThat(s.listed()).containsEntry("fe_web", 4).doesNotContainKey("GLOBAL");
        }
    }

    @Test
    void onlyTheAskedFrontendsAreCountedAndTopIsBounded() {
        String answer = Captured.file("show-sess.txt");

        assertThat(read(answer, Set.of("fe_api"), 4096).top("fe_web", 10)).isEmpty();
        assertThat(read(answer, Set.of("fe_web"), 4096).top("fe_web", 1)).containsExactly(new SlotHolder("127.0.0.1", 3));
    }

    @Test
    void aRefusalIsKeptAsHaproxySaidIt() {
        SessionSources s = read(Captured.file("permission-denied.txt"), Set.of("fe_web"), 4096);

        assertThat(s.refusal()).startsWith("Permission denied");
    }

    @Test
    void ipv6ClientsAreCountedByTheir64AndMappedIpv4AsIpv4() {
        assertThat(SessionSources.holder("2001:db8:1:2:aaaa::5")).isEqualTo("2001:db8:1:2::/64");
        assertThat(SessionSources.holder("2001:db8:1:2::9")).isEqualTo("2001:db8:1:2::/64");
        assertThat(SessionSources.holder("::ffff:10.1.2.3")).isEqualTo("10.1.2.3");
        assertThat(SessionSources.holder("10.1.2.3")).isEqualTo("10.1.2.3");
        assertThat(SessionSources.holder("example.com:x")).as("never a name lookup").isEqualTo("example.com:x");
    }

    @Test
    void holdersAreReadOnlyForFrontendsAtTheirThreshold() throws Exception {
        Snapshot s = RuntimeApiSource.parse(Captured.file("show-info.txt")
                + Captured.withField(Captured.file("show-stat.csv"), "fe_web", "FRONTEND", "scur", "160"));

        assertThat(new HolderReading(80, 10).nearFull(s)).containsExactly("fe_web");
        assertThat(new HolderReading(81, 10).nearFull(s)).isEmpty();
    }
}
