package io.lsmpolicies.lsm.log;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The on-disk format shared by write-ahead-log segments and the manifest (version 1). Big-endian.
 *
 * <pre>
 * file   := header record*
 * header := magic u64 ("LSMLOG\n\x1a") | version u32 (1) | kind u32 ({@link LogKind#id()}) | crc u32
 *           (CRC32C of the 16 bytes before it)                                   -- 20 bytes
 * record := length u32 | lengthCrc u32 (CRC32C of the 4 length bytes) | payloadCrc u32 (CRC32C of payload)
 *           | payload (length bytes)                                             -- 12 + length bytes
 * </pre>
 *
 * The length has its own checksum so that a reader can tell a trustworthy length that runs past the end
 * of the file (a torn final write) from a damaged length (corruption).
 */
final class LogFormat {
    static final long MAGIC = 0x4C534D4C4F470A1AL; // "LSMLOG\n\x1a"
    static final int VERSION = 1;
    static final int HEADER_BYTES = 20;
    static final int RECORD_HEADER_BYTES = 12;

    private LogFormat() {
    }

    static ByteBuffer header(LogKind kind) {
        ByteBuffer b = ByteBuffer.allocate(HEADER_BYTES);
        b.putLong(MAGIC).putInt(VERSION).putInt(kind.id());
        b.putInt(crc(b.array(), 0, 16));
        return b.flip();
    }

    static int crc(byte[] bytes, int offset, int length) {
        CRC32C c = new CRC32C();
        c.update(bytes, offset, length);
        return (int) c.getValue();
    }

    static int lengthCrc(int length) {
        CRC32C c = new CRC32C();
        c.update(length >>> 24);
        c.update(length >>> 16);
        c.update(length >>> 8);
        c.update(length);
        return (int) c.getValue();
    }
}
