package io.hcwatch.topology.state;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * How one kind of monitored key's state is cut into parts ({@link PartedMonitoredCodec}): what
 * changes together goes together, so that a commit rewrites what changed, not the whole key.
 */
interface StateSplit {

    /** Takes subtrees out of {@code tree} (the value's whole tree) into parts, by name; what is left is the head part. */
    void split(ObjectNode tree, Map<String, byte[]> parts);

    /** Puts the subtrees of {@code parts} back into the head, {@code tree}. */
    void join(ObjectNode tree, Map<String, byte[]> parts);
}
