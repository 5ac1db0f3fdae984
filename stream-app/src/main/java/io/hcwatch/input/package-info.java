/**
 * What hcwatch's inputs become on their way from a decoder to a monitor: one record type per
 * kind, each in the sealed families it travels in. {@link io.hcwatch.input.Decoded} is what a
 * decoder makes of an input value; {@link io.hcwatch.input.Payload} what an internal envelope
 * carries (a {@link io.hcwatch.input.Telemetry} record, or an upstream's
 * {@link io.hcwatch.input.Progress}); {@link io.hcwatch.input.Pending} and
 * {@link io.hcwatch.input.Summary} what an ingest holds and sends on per second;
 * {@link io.hcwatch.input.FleetInput} and {@link io.hcwatch.input.HostInput} what those monitors
 * take in (the flood and feed monitors take one kind each: {@link io.hcwatch.input.ClientSummary},
 * {@link io.hcwatch.input.FeedHeartbeat}). The Avro records inside stay what goes on the wire.
 *
 * <p>Code that does something different per kind implements its family's {@code Cases}: one
 * method per kind, so a kind added to a family is a compile error at every place that must handle
 * it. (A visitor, because Java 17 has pattern matching for {@code switch} only as a preview.)
 * What every kind has (its event time, its Avro form) is a method of the record itself.
 */
package io.hcwatch.input;
