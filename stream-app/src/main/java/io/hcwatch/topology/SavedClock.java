package io.hcwatch.topology;

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
 */
final class SavedClock {

    static final String HEADER = "clock";
    private static final String HELD_PREFIX = "held/";
    private static final byte HEADER_TAG = 1;
    private static final byte HELD_TAG = 2;

    /** One entry of the store: the live clock's header, a restored header, or one held record. */
    sealed interface Entry permits LiveHeader, Header, HeldRecord {
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

    /**
     * Puts what the store holds back into {@code clock}, then makes the store follow the live clock.
     * A held record's tombstone reaches the changelog a commit after the key state it fed
     * ({@link io.hcwatch.topology.state.WriteBehindStore#deleteAfterNextCommit}), so a held record may come back that its
     * key has already taken in: {@code applied} tells, and those are dropped for good.
     */
    static void restore(ObjectStore<Entry> store, MonitorClock<Envelope> clock, long wallNow, Applied applied) {
        Header header = null;
        List<MonitorClock.Held<Envelope>> held = new ArrayList<>();
        for (String key : store.keys()) {
            Entry e = store.get(key);
            if (e instanceof Header h) {
                header = h;
            } else if (e instanceof HeldRecord r) {
                if (applied.already(r.held().key(), r.held().time())) {
                    store.delete(key);
                } else {
                    held.add(r.held());
                }
            }
        }
        if (header != null) {
            held.sort(Comparator.comparingLong(MonitorClock.Held::seq));
            clock.restore(header.watermark(), header.lastStep(), header.upstreams(), held, wallNow);
        }
        store.put(HEADER, new LiveHeader(clock));
    }

    /** Binary, with a leading tag: the header's fields, or a held record's key, time, sequence and envelope. */
    static final class Codec implements StateCodec<Entry> {

        private final EnvelopeSerde envelopes = new EnvelopeSerde();

        @Override
        public byte[] encode(Entry entry) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(bytes)) {
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
                throw new IllegalStateException("monitor clock entry of an unknown kind " + tag
                        + " (written by a newer hcwatch?)");
            } catch (IOException e) {
                throw new UncheckedIOException("could not decode a monitor clock entry from its changelog", e);
            }
        }
    }
}
