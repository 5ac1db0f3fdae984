package io.hcwatch.collect.haproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RuntimeApiSourceTest {

    @Test
    void readsTheProcessFrontendsBackendsAndServersOfARealHaproxy26Answer() throws Exception {
        Snapshot s = RuntimeApiSource.parse(Captured.answer());

        assertThat(s.process()).isEqualTo(new ProcessInfo(14399, 8, 1000, 0, 0, 0, 0, 100));
        assertThat(s.frontends()).extracting(Snapshot.Frontend::name).containsExactly("fe_web", "fe_api", "stats");
        Snapshot.Frontend web = s.frontends().get(0);
        assertThat(web.slim()).isEqualTo(200);
        assertThat(web.stot()).isEqualTo(23);
        assertThat(web.dreq()).isEqualTo(3);
        assertThat(web.status()).isEqualTo("OPEN");
        assertThat(web.qcur()).as("frontends have no queue in HAProxy").isNull();
        assertThat(web.dcon()).isZero();
        assertThat(s.backends()).extracting(Snapshot.Backend::name).containsExactly("be_web", "be_api");
        assertThat(s.servers()).extracting(Snapshot.Server::name)
                .containsExactly("ok1", "err500", "slow", "refused", "maint", "drain", "nocheck");
        Snapshot.Server err500 = s.servers().get(1);
        assertThat(err500.status()).isEqualTo("DOWN");
        assertThat(err500.checkStatus()).isEqualTo("L7STS");
        assertThat(err500.checkCode()).isEqualTo(500);
        assertThat(err500.checkDescription()).isEqualTo("Layer7 wrong status");
        assertThat(err500.address()).isEqualTo("127.0.0.1:18191");
        assertThat(err500.rise()).isEqualTo(2);
        assertThat(err500.fall()).isEqualTo(3);
        assertThat(s.servers().get(2).checkDurationMs()).as("slow: the 1 s check timeout").isEqualTo(1001);
    }

    @Test
    void readsColumnsByNameWhateverTheirOrderAndIgnoresColumnsItDoesNotKnow() throws Exception {
        Snapshot real = RuntimeApiSource.parse(Captured.answer());

        Snapshot shuffled = RuntimeApiSource.parse(Captured.answer(Captured.file("show-info.txt"),
                Captured.reorderedWithExtraColumn(Captured.file("show-stat.csv"))));

        assertThat(shuffled).isEqualTo(real);
    }

    @Test
    void anAnswerCutInsideTheCsvIsTruncatedNotAShorterTable() {
        String answer = Captured.answer();
        String cut = answer.substring(0, answer.indexOf("be_web,slow") + 20);

        assertThatThrownBy(() -> RuntimeApiSource.parse(cut))
                .isInstanceOfSatisfying(PollException.class, e -> assertThat(e.reason).isEqualTo("truncated"));
    }

    @Test
    void anAnswerCutAtALineEndIsTruncatedToo() {
        String answer = Captured.answer();
        String cut = answer.substring(0, answer.indexOf("be_web,slow"));

        assertThatThrownBy(() -> RuntimeApiSource.parse(cut))
                .isInstanceOfSatisfying(PollException.class, e -> {
                    assertThat(e.reason).isEqualTo("truncated");
                    assertThat(e.getMessage()).contains("closing empty line");
                });
    }

    @Test
    void aMissingRequiredColumnFailsThePollNamingTheColumn() {
        String stat = Captured.withoutColumn(Captured.file("show-stat.csv"), "slim");

        assertThatThrownBy(() -> RuntimeApiSource.parse(Captured.answer(Captured.file("show-info.txt"), stat)))
                .isInstanceOfSatisfying(PollException.class, e -> {
                    assertThat(e.reason).isEqualTo("missing_column");
                    assertThat(e.getMessage()).contains("'slim'");
                });
    }

    @Test
    void aColumnOnlyNewerVersionsHaveMayBeAbsent() throws Exception {
        String stat = Captured.withoutColumn(Captured.withoutColumn(Captured.file("show-stat.csv"), "dcon"), "check_desc");

        Snapshot s = RuntimeApiSource.parse(Captured.answer(Captured.file("show-info.txt"), stat));

        assertThat(s.frontends().get(0).dcon()).isNull();
        assertThat(s.servers().get(1).checkDescription()).isNull();
    }

    @Test
    void aNonNumericCounterIsABadValue() {
        String stat = Captured.withField(Captured.file("show-stat.csv"), "fe_web", "FRONTEND", "stot", "2x3");

        assertThatThrownBy(() -> RuntimeApiSource.parse(Captured.answer(Captured.file("show-info.txt"), stat)))
                .isInstanceOfSatisfying(PollException.class, e -> {
                    assertThat(e.reason).isEqualTo("bad_value");
                    assertThat(e.getMessage()).contains("stot of fe_web/FRONTEND held '2x3'");
                });
    }

    @Test
    void haproxysRefusalsAreReportedAsSuch() {
        assertThatThrownBy(() -> RuntimeApiSource.parse(Captured.file("unknown-command.txt")))
                .isInstanceOfSatisfying(PollException.class, e -> assertThat(e.reason).isEqualTo("unknown_command"));
        assertThatThrownBy(() -> RuntimeApiSource.parse(Captured.file("permission-denied.txt")))
                .isInstanceOfSatisfying(PollException.class, e -> assertThat(e.reason).isEqualTo("permission_denied"));
        String infoThenUnknown = Captured.file("show-info.txt") + Captured.file("unknown-command.txt");
        assertThatThrownBy(() -> RuntimeApiSource.parse(infoThenUnknown))
                .isInstanceOfSatisfying(PollException.class, e -> assertThat(e.reason).isEqualTo("unknown_command"));
    }

    @Test
    void somethingThatIsNotAStatsAnswerIsAnUnknownFormat() {
        assertThatThrownBy(() -> RuntimeApiSource.parse("hello\n\nworld\n\n"))
                .isInstanceOfSatisfying(PollException.class, e -> assertThat(e.reason).isEqualTo("unknown_format"));
    }
}
