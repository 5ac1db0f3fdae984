package io.hcwatch.collect.haproxy;

import java.util.ArrayList;
import java.util.List;

/**
 * The frontend, backend and server rows of a stats CSV as typed values. The columns a row kind
 * needs must be there (an error for the whole poll otherwise); the ones only some versions report
 * ({@code dcon} since 1.7, {@code check_desc}, {@code conn_rate}, ...) are read when present.
 */
final class StatRows {

    static final int TYPE_FRONTEND = 0;
    static final int TYPE_BACKEND = 1;
    static final int TYPE_SERVER = 2;

    private final List<Snapshot.Frontend> frontends = new ArrayList<>();
    private final List<Snapshot.Backend> backends = new ArrayList<>();
    private final List<Snapshot.Server> servers = new ArrayList<>();

    private StatRows() {
    }

    static Snapshot read(Csv csv, ProcessInfo process) throws PollException {
        StatRows r = new StatRows();
        Columns c = new Columns(csv);
        for (String[] row : csv.rows()) {
            Row f = new Row(row, c);
            switch (f.type()) {
                case TYPE_FRONTEND -> r.frontends.add(new Snapshot.Frontend(f.text(c.pxname), f.text(c.status),
                        f.integer(c.scur, "scur"), f.optionalInt(c.slim, "slim"), f.integer(c.smax, "smax"),
                        f.optionalInt(c.qcur, "qcur"), f.integer(c.rate, "rate"), f.optionalInt(c.reqRate, "req_rate"),
                        f.optionalInt(c.connRate, "conn_rate"), f.counter(c.stot, "stot"), f.counter(c.ereq, "ereq"),
                        f.counter(c.dreq, "dreq"), f.optionalLong(c.dcon, "dcon")));
                case TYPE_BACKEND -> r.backends.add(new Snapshot.Backend(f.text(c.pxname), f.text(c.status),
                        f.integer(c.scur, "scur"), f.optionalInt(c.qcur, "qcur"), f.optionalInt(c.act, "act"),
                        f.optionalInt(c.bck, "bck"), f.counter(c.stot, "stot"), f.optionalLong(c.econ, "econ"),
                        f.optionalLong(c.eresp, "eresp")));
                case TYPE_SERVER -> r.servers.add(new Snapshot.Server(f.text(c.pxname), f.text(c.svname), f.text(c.status),
                        checkStatus(f.text(c.checkStatus)), f.optionalInt(c.checkCode, "check_code"),
                        f.optionalInt(c.checkDuration, "check_duration"), f.optionalLong(c.lastchg, "lastchg"),
                        emptyToNull(f.text(c.checkDesc)), emptyToNull(f.text(c.addr)), f.optionalInt(c.rise, "check_rise"),
                        f.optionalInt(c.fall, "check_fall"), running(f.text(c.checkStatus)),
                        f.optionalLong(c.chkfail, "chkfail"), f.optionalInt(c.checkHealth, "check_health")));
                default -> {
                    // listeners (type 3) and anything newer
                }
            }
        }
        return new Snapshot(process, List.copyOf(r.frontends), List.copyOf(r.backends), List.copyOf(r.servers));
    }

    /** HAProxy shows a running check as "* L7OK"; the result is the same check status. */
    private static String checkStatus(String text) {
        if (text == null) {
            return null;
        }
        String s = text.startsWith("* ") ? text.substring(2) : text;
        return s.isEmpty() ? null : s;
    }

    private static boolean running(String checkStatus) {
        return checkStatus != null && checkStatus.startsWith("* ");
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    /** Column indexes, looked up once per table. */
    private static final class Columns {
        final int pxname;
        final int svname;
        final int type;
        final int status;
        final int scur;
        final int slim;
        final int smax;
        final int qcur;
        final int rate;
        final int reqRate;
        final int connRate;
        final int stot;
        final int ereq;
        final int dreq;
        final int dcon;
        final int econ;
        final int eresp;
        final int act;
        final int bck;
        final int checkStatus;
        final int checkCode;
        final int checkDuration;
        final int lastchg;
        final int checkDesc;
        final int addr;
        final int rise;
        final int fall;
        final int chkfail;
        final int checkHealth;

        Columns(Csv csv) throws PollException {
            pxname = csv.required("pxname");
            svname = csv.required("svname");
            type = csv.optional("type");
            status = csv.required("status");
            scur = csv.required("scur");
            slim = csv.required("slim");
            smax = csv.required("smax");
            qcur = csv.optional("qcur");
            rate = csv.required("rate");
            reqRate = csv.optional("req_rate");
            connRate = csv.optional("conn_rate");
            stot = csv.required("stot");
            ereq = csv.required("ereq");
            dreq = csv.required("dreq");
            dcon = csv.optional("dcon");
            econ = csv.optional("econ");
            eresp = csv.optional("eresp");
            act = csv.optional("act");
            bck = csv.optional("bck");
            checkStatus = csv.optional("check_status");
            checkCode = csv.optional("check_code");
            checkDuration = csv.optional("check_duration");
            lastchg = csv.optional("lastchg");
            checkDesc = csv.optional("check_desc");
            addr = csv.optional("addr");
            rise = csv.optional("check_rise");
            fall = csv.optional("check_fall");
            chkfail = csv.optional("chkfail");
            checkHealth = csv.optional("check_health");
        }
    }

    private record Row(String[] fields, Columns c) {

        /** The type column when present, else svname (FRONTEND, BACKEND, else a server or listener). */
        int type() throws PollException {
            if (c.type >= 0) {
                return (int) Csv.number(where("type"), fields[c.type]);
            }
            return switch (fields[c.svname]) {
                case "FRONTEND" -> TYPE_FRONTEND;
                case "BACKEND" -> TYPE_BACKEND;
                default -> TYPE_SERVER;
            };
        }

        String text(int column) {
            return column < 0 ? null : fields[column];
        }

        int integer(int column, String name) throws PollException {
            return (int) Math.min(Integer.MAX_VALUE, Csv.number(where(name), fields[column]));
        }

        long counter(int column, String name) throws PollException {
            return Csv.number(where(name), fields[column]);
        }

        Integer optionalInt(int column, String name) throws PollException {
            Long v = optionalLong(column, name);
            return v == null ? null : (int) Math.min(Integer.MAX_VALUE, v);
        }

        Long optionalLong(int column, String name) throws PollException {
            if (column < 0 || fields[column].isEmpty()) {
                return null;
            }
            String v = fields[column];
            // check_duration and lastchg are -1 where they do not apply in some versions
            return v.equals("-1") ? null : Csv.number(where(name), v);
        }

        private String where(String name) {
            return name + " of " + fields[c.pxname] + "/" + fields[c.svname];
        }
    }
}
