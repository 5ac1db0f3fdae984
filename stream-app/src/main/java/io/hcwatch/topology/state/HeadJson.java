package io.hcwatch.topology.state;

import io.hcwatch.alert.Monitored;

/**
 * The head part ({@link PartedMonitoredCodec#HEAD}) of a key written from its live value: the
 * layout's version, then the value's fields, its detector state by the kind's {@link BeanJson}
 * (what the other parts hold left out of it).
 */
final class HeadJson {

    private HeadJson() {
    }

    static BeanJson of(BeanJson state) {
        return BeanJson.of(Monitored.class)
                .first((m, g, p) -> g.writeNumberField("v", PartedMonitoredCodec.VERSION))
                .instead("state", state::writeObject);
    }

    static byte[] write(BeanJson head, Monitored<?> value) {
        return JsonBytes.write(new byte[0], (g, p) -> head.writeObject(value, g, p));
    }
}
