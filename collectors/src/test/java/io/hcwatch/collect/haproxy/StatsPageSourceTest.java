package io.hcwatch.collect.haproxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;

class StatsPageSourceTest {

    @Test
    void theProcessBlockOfARealStatsPageGivesPidUptimeAndLimits() throws Exception {
        ProcessInfo p = StatsPageInfo.parse(Captured.file("stats-page-info.html"));

        assertThat(p).isEqualTo(new ProcessInfo(14399, 10, 1000, 1, 2, null, null, null));
    }

    @Test
    void theStatsPageCsvReadsLikeShowStat() throws Exception {
        ProcessInfo p = StatsPageInfo.parse(Captured.file("stats-page-info.html"));

        Snapshot s = StatRows.read(Csv.parse(Captured.file("stats-page.csv")), p);

        assertThat(s.frontends()).extracting(Snapshot.Frontend::name, Snapshot.Frontend::slim)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("fe_web", 200),
                        org.assertj.core.groups.Tuple.tuple("fe_api", 1000), org.assertj.core.groups.Tuple.tuple("stats", 1000));
        assertThat(s.servers()).hasSize(7);
    }

    @Test
    void theProcessBlockComesFromTheHtmlPageOfTheSameUri() {
        assertThat(StatsPageSource.infoUri(URI.create("http://127.0.0.1:8404/stats;csv")))
                .isEqualTo(URI.create("http://127.0.0.1:8404/stats;norefresh;scope=hcwatch.no.proxy"));
        assertThat(StatsPageSource.infoUri(URI.create("http://10.0.0.5/haproxy?stats;csv")))
                .isEqualTo(URI.create("http://10.0.0.5/haproxy?stats;norefresh;scope=hcwatch.no.proxy"));
    }
}
