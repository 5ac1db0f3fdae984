package io.hcwatch.topology;

import static io.hcwatch.topology.IngestRecords.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.traffic.CardinalityLimits;
import org.junit.jupiter.api.Test;

/** Which names a partition takes in: each kind of record counts the names it carries against the limits. */
class AdmissionTest {

    /** Two target groups of two targets each, one host of one frontend. */
    private final Admission admission = new Admission(new CardinalityLimits.Limits(2, 2, 1, 1, 3_600_000));

    @Test
    void aThirdTargetGroupIsRefusedWhicheverKindOfRecordNamesIt() {
        assertThat(admission.refusedKind(IngestRecords.alb("tg-a", "10.0.1.1", T0))).isNull();
        assertThat(admission.refusedKind(IngestRecords.check("tg-b", "i-1", T0))).isNull();
        assertThat(admission.refusedKind(IngestRecords.alb("tg-c", "10.0.1.1", T0))).isEqualTo("target_group");
        assertThat(admission.refusedKind(IngestRecords.noServer("tg-c", T0))).isEqualTo("target_group");
        assertThat(admission.refusedKind(IngestRecords.targetGroupConfig("tg-c", T0))).isEqualTo("target_group");
        // names already taken stay taken
        assertThat(admission.refusedKind(IngestRecords.noServer("tg-a", T0))).isNull();
    }

    @Test
    void aThirdTargetOfAGroupIsRefusedAndSoIsAnUnreadableCheckNamingIt() {
        assertThat(admission.refusedKind(IngestRecords.check("tg-a", "i-1", T0))).isNull();
        assertThat(admission.refusedKind(IngestRecords.check("tg-a", "i-2", T0))).isNull();
        assertThat(admission.refusedKind(IngestRecords.check("tg-a", "i-3", T0))).isEqualTo("target");
        assertThat(admission.refusedTarget("tg-a", "i-4", T0)).isEqualTo("target");
        assertThat(admission.refusedTarget("tg-a", "i-1", T0)).isNull();
    }

    @Test
    void haproxyLinesAndFrontendConfigsCountTheirHostAndFrontendAndPollsAreNotCounted() {
        assertThat(admission.refusedKind(IngestRecords.haproxy("lb1", "fe", "app", T0))).isNull();
        assertThat(admission.refusedKind(IngestRecords.haproxy("lb1", "fe2", "app", T0))).isEqualTo("frontend");
        // a frontend config without a host names the host in its id, host/frontend
        assertThat(admission.refusedKind(IngestRecords.frontendConfig("lb2/fe", null, T0))).isEqualTo("host");
        assertThat(admission.refusedKind(IngestRecords.poll("lb3", T0))).isNull();
    }

    @Test
    void aRefusalNamesTheKindAndTheSettingThatLimitsIt() {
        assertThat(admission.refusal("target_group"))
                .isEqualTo("names one target group more than this partition takes (limits.target-groups=2)");
        assertThat(admission.refusal("target")).isEqualTo("names one target more than this partition takes (limits.targets-per-group=2)");
        assertThat(admission.refusal("host")).isEqualTo("names one host more than this partition takes (limits.hosts=1)");
        assertThat(admission.refusal("frontend"))
                .isEqualTo("names one frontend more than this partition takes (limits.frontends-per-host=1)");
    }
}
