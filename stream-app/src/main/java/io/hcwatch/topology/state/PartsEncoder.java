package io.hcwatch.topology.state;

import io.hcwatch.alert.Monitored;
import java.util.Map;

/**
 * How a monitored key becomes what {@link PartedMonitoredCodec} stores: its parts by name, framed,
 * the key itself ({@link StoredParts#WHOLE}) and the head last, in the order a commit writes them.
 */
interface PartsEncoder<S> {

    Map<String, byte[]> encode(Monitored<S> value);

    /** {@link #encode}, where a part known unchanged may come by its bytes' hash alone ({@link EncodedParts}). */
    default Map<String, byte[]> encodeForCommit(Monitored<S> value) {
        return encode(value);
    }
}
