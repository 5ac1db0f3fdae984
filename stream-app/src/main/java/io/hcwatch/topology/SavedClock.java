package io.hcwatch.topology;

import io.hcwatch.input.FromNewerRelease;
import io.hcwatch.time.MonitorClock;
import io.hcwatch.time.Upstreams;
import io.hcwatch.topology.state.StateCodec;
import io.hcwatch.topology.state.ObjectStore;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A monitor task's {@link MonitorClock} in its changelogged store: under {@link #HEADER} the
 * watermark, the last step and what each upstream reported; under {@code held/<seq>} each record
 * held above the watermark, one entry each (their offsets are committed, so after a crash they
 * exist nowhere else; one entry each keeps every changelog record small however much is held,
 * and a record held and released between two commits never reaches the changelog). A released
 * record's entry is deleted a commit late, once the state of its key is durable.
 *
 * <p>Each entry starts with a zero byte and its layout version ({@link #LAYOUT}), then its tag.
 * Layout 0 (the first releases) started with the tag (1 or 2), and is still read. An entry of a
 * newer layout, or a held record whose envelope a newer release wrote, is kept as its bytes
 * ({@link NewerEntry}) and dead-lettered at restore, instead of failing the task's start.
 */
final class SavedClock {

    static final String HEADER = "clock";
    private static final String HELD_PREFIX = "held/";
    private static final byte HEADER_TAG = 1;
    private static final byte HELD_TAG = 2;
    /** The first byte of a versioned entry; layout 0 started with its tag, never 0. */
    private static final byte VERSIONED = 0;
    /** The layout this release writes. */
    static final int LAYOUT = 1;

    /** One entry of the store: the live clock's header, a restored header, one held record, or one a newer release wrote. */
    sealed interface Entry permits LiveHeader, Header, HeldRecord, NewerEntry {
    }

    /** An entry of a layout this release does not know, kept as it was read. */
    record NewerEntry(FromNewerRelease record) implements Entry {
    }

    /** What the store keeps for the running clock: encoded from it at every commit. */
    record LiveHeader(MonitorClock<Envelope> clock) implements Entry {
    }

    record Header(long watermark, long lastStep, Map<String, Upstreams.Upstream> upstreams) implements Entry {
    }

    record HeldRecord(MonitorClock.Held<Envelope> held) implements Entry {
    }

    private SavedClock() {
    }

    /** {@code held/} and the sequence number in 16 hex digits (String.format was measurable: one key per held record). */
    static String heldKey(MonitorClock.Held<?> h) {
        String hex = Long.toHexString(h.seq());
        return HELD_PREFIX + "0".repeat(16 - hex.length()) + hex;
    }

    /** Whether a key's restored state already took in its record at {@code time}. */
    @FunctionalInterface
    interface Applied {
        boolean already(String key, long time);
    }

    /** Told of each entry a newer release wrote, which restore drops. */
    @FunctionalInterface
    interface Refused {
        /**
         * @param key  the held record's key, or null when not readable
         * @param time the held record's event time, or negative when not readable
         */
        void refused(FromNewerRelease record, String key, long time);
    }

    /**
     * Puts what the store holds back into {@code clock}, then makes the store follow the live clock.
     * A held record's tombstone reaches the changelog a commit after the key state it fed
     * ({@link io.hcwatch.topology.state.WriteBehindStore#deleteAfterNextCommit}), so a held record may come back that its
     * key has already taken in: {@code applied} tells, and those are dropped for good. An entry a
     * newer release wrote goes to {@code refused} and is deleted; a header of a newer layout leaves
     * the clock to start afresh, with the held records this release can read.
     */
    static void restore(ObjectStore<Entry> store, MonitorClock<Envelope> clock, long wallNow, Applied applied,
                        Refused refused) {
        Header header = null;
        boolean newerHeader = false;
        List<MonitorClock.Held<Envelope>> held = new ArrayList<>();
        for (String key : store.keys()) {
            Entry e = store.get(key);
            if (e instanceof Header h) {
                header = h;
            } else if (e instanceof HeldRecord r) {
                if (r.held().event().payload() instanceof FromNewerRelease newer) {
                    refused.refused(newer, r.held().key(), r.held().time());
                    store.delete(key);
                } else if (applied.already(r.held().key(), r.held().time())) {
                    store.delete(key);
                } else {
                    held.add(r.held());
                }
            } else if (e instanceof NewerEntry n) {
                refused.refused(n.record(), null, -1);
                newerHeader |= key.equals(HEADER);
                store.delete(key);
            }
        }
        held.sort(Comparator.comparingLong(MonitorClock.Held::seq));
        if (header != null) {
            clock.restore(header.watermark(), header.lastStep(), header.upstreams(), held, wallNow);
        } else if (newerHeader) {
            // what the upstreams reported is lost, as on a first start; the held records are not
            clock.restore(Long.MIN_VALUE, Long.MIN_VALUE, Map.of(), held, wallNow);
        }
        store.put(HEADER, new LiveHeader(clock));
    }

    /**
     * Binary: a zero byte, the layout, a tag, then the header's fields, or a held record's key, time,
     * sequence and envelope.
     */
    static final class Codec implements StateCodec<Entry> {

        private final EnvelopeSerde envelopes = new EnvelopeSerde();

        @Override
        public byte[] encode(Entry entry) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            if (entry instanceof NewerEntry n) {
                return n.record().bytes();
            }
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                out.writeByte(VERSIONED);
                out.writeByte(LAYOUT);
                if (entry instanceof LiveHeader live) {
                    writeHeader(out, live.clock().watermark(), live.clock().lastStep(), live.clock().upstreams().table());
                } else if (entry instanceof Header h) {
                    writeHeader(out, h.watermark(), h.lastStep(), h.upstreams());
                } else if (entry instanceof HeldRecord r) {
                    out.writeByte(HELD_TAG);
                    out.writeUTF(r.held().key());
                    out.writeLong(r.held().time());
                    out.writeLong(r.held().seq());
                    byte[] envelope = envelopes.serialize(null, r.held().event());
                    out.writeInt(envelope.length);
                    out.write(envelope);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return bytes.toByteArray();
        }

        private static void writeHeader(DataOutputStream out, long watermark, long lastStep,
                                        Map<String, Upstreams.Upstream> upstreams) throws IOException {
            out.writeByte(HEADER_TAG);
            out.writeLong(watermark);
            out.writeLong(lastStep);
            out.writeInt(upstreams.size());
            for (Map.Entry<String, Upstreams.Upstream> e : upstreams.entrySet()) {
                out.writeUTF(e.getKey());
                out.writeLong(e.getValue().time);
                out.writeBoolean(e.getValue().idle);
            }
        }

        @Override
        public Entry decode(byte[] bytes) {
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
                byte tag = in.readByte();
                if (tag == VERSIONED) {
                    int layout = in.readUnsignedByte();
                    if (layout > LAYOUT) {
                        return newer(bytes, "a monitor clock entry of layout " + layout
                                + " was written by a newer hcwatch (this one reads layouts up to " + LAYOUT + ")");
                    }
                    tag = in.readByte();
                }
                if (tag == HEADER_TAG) {
                    long watermark = in.readLong();
                    long lastStep = in.readLong();
                    int count = in.readInt();
                    Map<String, Upstreams.Upstream> upstreams = new LinkedHashMap<>();
                    for (int i = 0; i < count; i++) {
                        Upstreams.Upstream u = new Upstreams.Upstream();
                        String id = in.readUTF();
                        u.time = in.readLong();
                        u.idle = in.readBoolean();
                        upstreams.put(id, u);
                    }
                    return new Header(watermark, lastStep, upstreams);
                }
                if (tag == HELD_TAG) {
                    String key = in.readUTF();
                    long time = in.readLong();
                    long seq = in.readLong();
                    Envelope envelope = envelopes.deserialize(null, in.readNBytes(in.readInt()));
                    return new HeldRecord(new MonitorClock.Held<>(key, envelope, time, seq));
                }
                return newer(bytes, "a monitor clock entry of kind " + tag
                        + ", which this hcwatch does not know, was written by a newer hcwatch");
            } catch (IOException e) {
                throw new UncheckedIOException("could not decode a monitor clock entry from its changelog", e);
            }
        }

        private static NewerEntry newer(byte[] bytes, String why) {
            return new NewerEntry(new FromNewerRelease(bytes, why));
        }
    }
}
