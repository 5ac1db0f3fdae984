package io.hcwatch.bench;

import io.hcwatch.topology.state.PartHash;
import java.util.Random;
import net.jpountz.xxhash.XXHash64;
import net.jpountz.xxhash.XXHashFactory;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * The hash a store keeps of each stored part, at the sizes {@code bench fleet} writes (a target
 * group's clock ~40 B, latency slot ~50 B, moves ~120 B, served window ~1.4 KB, a client scope's
 * second ~12.7 KB): PartHash (xxHash64 of lz4-java, pure Java) against lz4-java's fastest instance
 * (JNI where it loads) and the byte-at-a-time FNV-1a the store used before.
 */
public class PartHashBenchmark extends OneThreadThroughput {

    @Param({"40", "120", "1400", "12700"})
    public int size;

    private final XXHash64 fastest = XXHashFactory.fastestInstance().hash64();
    private byte[] bytes;

    @Setup(Level.Trial)
    public void bytes() {
        bytes = new byte[size];
        new Random(size).nextBytes(bytes);
    }

    @Benchmark
    public long partHash() {
        return PartHash.of(bytes);
    }

    @Benchmark
    public long xxHash64Fastest() {
        return fastest.hash(bytes, 0, bytes.length, 0);
    }

    /** The store's hash before PartHash, as it was written there. */
    @Benchmark
    public long fnv1a() {
        long h = 0xcbf29ce484222325L ^ bytes.length;
        for (byte b : bytes) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        return h == 0 ? 1 : h;
    }
}
