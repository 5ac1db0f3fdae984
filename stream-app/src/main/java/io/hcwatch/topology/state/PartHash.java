package io.hcwatch.topology.state;

import net.jpountz.xxhash.XXHash64;
import net.jpountz.xxhash.XXHashFactory;

/**
 * The 64-bit hash by which a store tells whether a part's bytes changed since they were stored
 * ({@link StoredParts}): xxHash64 of lz4-java, the library Kafka's clients already carry for lz4.
 * Its pure-Java form, not the JNI one: a call into native code costs more than hashing the few
 * dozen bytes most parts have. It replaced a byte-at-a-time FNV-1a written here, which took 6% of a
 * {@code bench fleet} thread (JFR); {@code PartHashBenchmark} measures both.
 */
public final class PartHash {

    private static final XXHash64 XX = XXHashFactory.fastestJavaInstance().hash64();

    private PartHash() {
    }

    /** The hash of {@code bytes}, never 0 (0 stands for "no hash"). */
    public static long of(byte[] bytes) {
        long h = XX.hash(bytes, 0, bytes.length, 0);
        return h == 0 ? 1 : h;
    }
}
