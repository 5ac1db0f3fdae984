package io.hcwatch.incident;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertStatus;
import io.hcwatch.avro.v1.Incident;
import io.hcwatch.avro.v1.IncidentChange;
import io.hcwatch.avro.v1.IncidentMember;
import io.hcwatch.avro.v1.Severity;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The incidents of one {@link IncidentScope}, decided from its member alerts alone, over their event
 * time: an incident opens with the first firing alert of the scope, stays open while any member fires
 * and resolves with the resolve of the last one (each member's cool-down has already run in the alert
 * lifecycle). It is paged again only when its headline (best {@link CausalRank}) or severity (highest of
 * its members) changes, or when decisive evidence arrives (a client to block is named), and at most
 * {@link #MAX_UPDATES} times: a page is for a person, and a person reads the rest in the timeline.
 * A plain bean so the incident store can keep it.
 */
public final class IncidentBook {

    public static final int MAX_UPDATES = 3;

    public String key;
    public String scopeKind;
    public String scopeName;
    /** Incidents opened on this scope so far: gives each its id. */
    public int opened;
    public String incidentId;
    /** 0 while no incident is open. */
    public long openedAt;
    public int updates;
    public String severity;
    public String headlineKey;
    public int headlineRank;
    /** The clients to block already paged (decisive evidence), comma-separated. */
    public String blockPaged;
    public List<Member> members = new ArrayList<>();

    public IncidentBook() {
    }

    public IncidentBook(IncidentScope scope) {
        this.key = scope.key();
        this.scopeKind = scope.kind();
        this.scopeName = scope.name();
    }

    public boolean isOpen() {
        return openedAt != 0;
    }

    /** One member notification (firing or resolved) at its event time; returns the page it makes, if any. */
    public Optional<Incident> apply(Alert alert) {
        long at = alert.getEventTime().toEpochMilli();
        Member m = member(alert.getDedupKey());
        if (alert.getStatus() == AlertStatus.resolved) {
            if (m == null || !m.firing()) {
                // a resolve for no open member: a repeat after a restart, or its incident resolved already
                return Optional.empty();
            }
            m.resolved = at;
            m.details = new LinkedHashMap<>(alert.getDetails());
            if (members.stream().noneMatch(Member::firing)) {
                Incident out = page(IncidentChange.resolved, "resolved", at);
                openedAt = 0;
                members = new ArrayList<>();
                return Optional.of(out);
            }
            return Optional.empty();
        }
        if (!isOpen()) {
            open(alert, at);
            return Optional.of(page(IncidentChange.opened, "opened", at));
        }
        String headlineBefore = headlineKey + "#" + headlineRank;
        String severityBefore = severity;
        join(m, alert, at);
        setHeadline();
        severity = highestSeverity();
        // a new headline member, or the same one now nearer the cause (its diagnosis names a shared dependency)
        String reason = (headlineKey + "#" + headlineRank).equals(headlineBefore) ? null : "headline";
        if (reason == null && !severity.equals(severityBefore)) {
            reason = "severity";
        }
        String block = block();
        if (reason == null && block != null && !block.equals(blockPaged)) {
            reason = "evidence";
        }
        if (reason == null || updates >= MAX_UPDATES) {
            return Optional.empty();
        }
        updates++;
        blockPaged = block;
        return Optional.of(page(IncidentChange.updated, reason, at));
    }

    private void open(Alert alert, long at) {
        opened++;
        long day = Math.floorDiv(at, 86_400_000L);
        incidentId = UUID.nameUUIDFromBytes((key + "|" + opened + "|" + day).getBytes(StandardCharsets.UTF_8)).toString();
        openedAt = at;
        updates = 0;
        members = new ArrayList<>();
        join(null, alert, at);
        setHeadline();
        severity = highestSeverity();
        blockPaged = block();
    }

    /** Adds the alert as a member, or brings its member up to date (a new episode, a flap, a change of severity). */
    private void join(Member existing, Alert alert, long at) {
        Member m = existing;
        if (m == null) {
            m = new Member();
            m.dedupKey = alert.getDedupKey();
            m.type = alert.getType();
            m.rank = Integer.MAX_VALUE;
            m.firstFired = at;
            m.severity = alert.getSeverity().name();
            members.add(m);
        }
        if (!alert.getAlertId().equals(m.alertId)) {
            m.episodes++;
            m.alertId = alert.getAlertId();
        }
        m.resolved = 0;
        m.rank = Math.min(m.rank, CausalRank.rank(alert));
        if (alert.getSeverity().ordinal() < Severity.valueOf(m.severity).ordinal()) {
            m.severity = alert.getSeverity().name();
        }
        m.summary = alert.getSummary();
        m.zone = alert.getScope() == null ? null : alert.getScope().getZone();
        m.client = alert.getScope() == null ? null : alert.getScope().getClient();
        m.runbookUrl = alert.getRunbookUrl();
        m.details = new LinkedHashMap<>(alert.getDetails());
    }

    private Member member(String dedupKey) {
        for (Member m : members) {
            if (m.dedupKey.equals(dedupKey)) {
                return m;
            }
        }
        return null;
    }

    /** The member nearest the cause; among equals the first to fire, then by key, so the choice does not depend on arrival order. */
    private Member headline() {
        return members.stream()
                .min(Comparator.comparingInt((Member m) -> m.rank).thenComparingLong(m -> m.firstFired).thenComparing(m -> m.dedupKey))
                .orElseThrow();
    }

    private void setHeadline() {
        Member head = headline();
        headlineKey = head.dedupKey;
        headlineRank = head.rank;
    }

    private String highestSeverity() {
        return members.stream().map(m -> Severity.valueOf(m.severity)).min(Comparator.naturalOrder()).orElseThrow().name();
    }

    /** The clients the members say to block (client_flood), sorted; null when none. */
    private String block() {
        TreeSet<String> clients = new TreeSet<>();
        for (Member m : members) {
            if (m.type.equals("client_flood") && m.client != null) {
                clients.add(m.client);
            }
        }
        return clients.isEmpty() ? null : String.join(",", clients);
    }

    private Incident page(IncidentChange change, String reason, long at) {
        Member head = headline();
        List<IncidentMember> timeline = new ArrayList<>();
        members.stream().sorted(Comparator.comparingLong((Member m) -> m.firstFired).thenComparing(m -> m.dedupKey))
                .forEach(m -> timeline.add(IncidentMember.newBuilder()
                        .setDedupKey(m.dedupKey)
                        .setType(m.type)
                        .setRole(CausalRank.role(m.rank).id())
                        .setSeverity(m.severity)
                        .setFirstFired(Instant.ofEpochMilli(m.firstFired))
                        .setResolved(m.firing() ? null : Instant.ofEpochMilli(m.resolved))
                        .setEpisodes(m.episodes)
                        .setSummary(m.summary)
                        .build()));
        return Incident.newBuilder()
                .setIncidentId(incidentId)
                .setIncidentKey(key)
                .setChange(change)
                .setReason(reason)
                .setUpdates(updates)
                .setSeverity(severity)
                .setEventTime(Instant.ofEpochMilli(at))
                .setOpenedAt(Instant.ofEpochMilli(openedAt))
                .setScopeKind(scopeKind)
                .setScopeName(scopeName)
                .setHeadlineType(head.type)
                .setHeadlineKey(head.dedupKey)
                .setSummary(head.summary)
                .setMembers(timeline)
                .setEvidence(Evidence.of(members))
                .setRunbookUrl(head.runbookUrl)
                .build();
    }
}
