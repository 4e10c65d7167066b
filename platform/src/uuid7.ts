import { randomFillSync } from 'node:crypto';

const pool = Buffer.alloc(16 * 512);
let offset = pool.length;

/**
 * A UUID version 7 (RFC 9562): 48-bit Unix milliseconds, then random bits. Rows inserted together
 * land next to each other in a primary-key index instead of on a thousand random pages, which is
 * what bulk inserts into large tables pay for (cache misses, full-page writes after checkpoints).
 */
export function uuidv7(now = Date.now()): string {
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const b = pool.subarray(offset, offset + 16);
  offset += 16;
  b.writeUIntBE(now, 0, 6);
  b[6] = (b[6]! & 0x0f) | 0x70;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
