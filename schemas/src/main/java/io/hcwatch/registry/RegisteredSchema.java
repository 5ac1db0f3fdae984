package io.hcwatch.registry;

import org.apache.avro.Schema;

/** A schema as the registry holds it: its global id, and the subject version it was found under (0 if unknown). */
public record RegisteredSchema(String subject, int id, int version, Schema schema) {
}
