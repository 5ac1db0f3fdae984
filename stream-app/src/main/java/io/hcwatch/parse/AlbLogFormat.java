package io.hcwatch.parse;

import io.hcwatch.avro.v1.AlbRequest;
import java.math.BigDecimal;

/**
 * Writes an {@link AlbRequest} as the access-log line ALB would have written: fields in documented
 * order, the documented fields quoted, absent values as {@code -} (processing times as {@code -1}),
 * times with microseconds. The line has {@code field_count} fields (at least 20), so older layouts
 * can be produced too; {@link AlbAccessLogParser} reads the line back to an equal record.
 */
public final class AlbLogFormat {

    /** 0-based positions of the fields AWS writes between double quotes. */
    private static final boolean[] QUOTED = new boolean[AlbAccessLogParser.KNOWN_FIELDS];

    static {
        for (int i : new int[] {12, 13, 17, 18, 19, 22, 23, 24, 25, 26, 27, 28, 30, 31, 32}) {
            QUOTED[i] = true;
        }
    }

    private AlbLogFormat() {
    }

    public static String format(AlbRequest r) {
        int fields = Math.max(AlbAccessLogParser.MIN_FIELDS, r.getFieldCount());
        StringBuilder out = new StringBuilder(512);
        for (int i = 0; i < fields; i++) {
            if (i > 0) {
                out.append(' ');
            }
            boolean quoted = i < QUOTED.length && QUOTED[i];
            if (quoted) {
                out.append('"');
            }
            appendField(out, r, i);
            if (quoted) {
                out.append('"');
            }
        }
        return out.toString();
    }

    private static void appendField(StringBuilder out, AlbRequest r, int i) {
        switch (i) {
            case 0 -> out.append(r.getType());
            case 1 -> IsoInstants.appendMicros(out, r.getTime());
            case 2 -> out.append(r.getElb());
            case 3 -> address(out, r.getClientIp(), r.getClientPort());
            case 4 -> address(out, r.getTargetIp(), r.getTargetPort());
            case 5 -> seconds(out, r.getRequestProcessingTime());
            case 6 -> seconds(out, r.getTargetProcessingTime());
            case 7 -> seconds(out, r.getResponseProcessingTime());
            case 8 -> orDash(out, r.getElbStatusCode());
            case 9 -> orDash(out, r.getTargetStatusCode());
            case 10 -> orDash(out, r.getReceivedBytes());
            case 11 -> orDash(out, r.getSentBytes());
            case 12 -> request(out, r);
            case 13 -> orDash(out, r.getUserAgent());
            case 14 -> orDash(out, r.getSslCipher());
            case 15 -> orDash(out, r.getSslProtocol());
            case 16 -> orDash(out, r.getTargetGroupArn());
            case 17 -> orDash(out, r.getTraceId());
            case 18 -> orDash(out, r.getDomainName());
            case 19 -> orDash(out, r.getChosenCertArn());
            case 20 -> orDash(out, r.getMatchedRulePriority());
            case 21 -> {
                if (r.getRequestCreationTime() == null) {
                    out.append('-');
                } else {
                    IsoInstants.appendMicros(out, r.getRequestCreationTime());
                }
            }
            case 22 -> orDash(out, r.getActionsExecuted());
            case 23 -> orDash(out, r.getRedirectUrl());
            case 24 -> orDash(out, r.getErrorReason());
            case 25 -> orDash(out, r.getTargetPortList());
            case 26 -> orDash(out, r.getTargetStatusCodeList());
            case 27 -> orDash(out, r.getClassification());
            case 28 -> orDash(out, r.getClassificationReason());
            case 29 -> orDash(out, r.getConnTraceId());
            case 30 -> orDash(out, r.getTransformedHost());
            case 31 -> orDash(out, r.getTransformedUri());
            case 32 -> orDash(out, r.getRequestTransformStatus());
            default -> out.append('-'); // a field newer than this code knows: nothing to say
        }
    }

    private static void request(StringBuilder out, AlbRequest r) {
        if (r.getRequest() != null) {
            out.append(r.getRequest());
            return;
        }
        if (r.getRequestMethod() == null && r.getRequestUrl() == null && r.getRequestProtocol() == null) {
            out.append('-');
            return;
        }
        orDash(out, r.getRequestMethod());
        out.append(' ');
        orDash(out, r.getRequestUrl());
        out.append(' ');
        orDash(out, r.getRequestProtocol());
    }

    private static void address(StringBuilder out, String ip, Integer port) {
        if (ip == null || port == null) {
            out.append('-');
        } else {
            out.append(HostPort.format(ip, port));
        }
    }

    /** ALB writes three decimals; finer values keep their shortest exact form so they read back equal. */
    static void seconds(StringBuilder out, Double value) {
        if (value == null) {
            out.append("-1");
            return;
        }
        if (value >= 0 && value < 1e9) {
            long ms = Math.round(value * 1000);
            if (ms / 1000.0 == value) {
                out.append(ms / 1000).append('.');
                IsoInstants.appendPadded(out, (int) (ms % 1000), 3);
                return;
            }
        }
        out.append(BigDecimal.valueOf(value).toPlainString());
    }

    private static void orDash(StringBuilder out, Object value) {
        if (value == null) {
            out.append('-');
        } else {
            out.append(value);
        }
    }
}
