import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fatalError, message, ProtocolViolation, query, readFrames, ReadyForQueryTail } from '../src/embedded-pg-wire';

const ready = (status: string) => message('Z', Buffer.from(status));
const dataRow = (text: string) => message('D', Buffer.concat([Buffer.from([0, 1]), Buffer.alloc(4, 0), Buffer.from(text)]));
const untyped = (code: number, extra = Buffer.alloc(0)) => {
  const b = Buffer.alloc(8);
  b.writeInt32BE(8 + extra.length, 0);
  b.writeInt32BE(code, 4);
  return Buffer.concat([b, extra]);
};
const startup = untyped(196608, Buffer.from('user\0postgres\0\0'));

function tailOf(chunks: Uint8Array[]): string | undefined {
  const tail = new ReadyForQueryTail();
  for (const c of chunks) tail.push(c);
  return tail.readyStatus();
}

function splitAt(bytes: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const parts: Buffer[] = [];
  let at = 0;
  for (const p of points) {
    parts.push(bytes.subarray(at, p));
    at = p;
  }
  parts.push(bytes.subarray(at));
  return parts;
}

describe('ReadyForQuery tail: whether an answer left the session idle', () => {
  it('reports the status of a final ReadyForQuery and nothing otherwise', () => {
    expect(tailOf([message('C', Buffer.from('SELECT 1\0')), ready('I')])).toBe('I');
    expect(tailOf([ready('T')])).toBe('T');
    expect(tailOf([ready('E')])).toBe('E');
    expect(tailOf([message('1'), message('2')])).toBeUndefined();
    expect(tailOf([])).toBeUndefined();
    // ReadyForQuery followed by anything (or by half a message) is not an ending.
    expect(tailOf([ready('I'), dataRow('x')])).toBeUndefined();
    expect(tailOf([ready('I'), Buffer.from('D')])).toBeUndefined();
    // A data row whose payload starts with 'Z' is not a ReadyForQuery.
    expect(tailOf([dataRow('ZI')])).toBeUndefined();
  });

  it('gives the same answer however the stream is cut into chunks', () => {
    const messages = fc.constantFrom(ready('I'), ready('T'), ready('E'), dataRow('Z\0\0\0\x05I'), message('1'), message('C', Buffer.from('INSERT 0 1\0')));
    fc.assert(
      fc.property(fc.array(messages, { minLength: 1, maxLength: 8 }), fc.array(fc.nat(), { maxLength: 6 }), (msgs, cuts) => {
        const whole = Buffer.concat(msgs);
        const last = msgs[msgs.length - 1]!;
        const expected = last[0] === 0x5a ? String.fromCharCode(last[5]!) : undefined;
        expect(tailOf([whole])).toBe(expected);
        expect(tailOf(splitAt(whole, cuts))).toBe(expected);
      }),
    );
  });
});

describe('frontend framing', () => {
  it('reads the startup phase, then typed messages, leaving incomplete bytes', () => {
    const sync = message('S');
    const q = query('select 1');
    const bytes = Buffer.concat([untyped(80877103), startup, q, sync, q.subarray(0, 3)]);
    const read = readFrames(bytes, false);
    expect(read.frames.map((f) => (f.kind === 'message' ? f.type : f.kind))).toEqual(['encryption-request', 'startup', 'Q', 'S']);
    expect(read.startupDone).toBe(true);
    expect(read.rest).toEqual(q.subarray(0, 3));
    expect(read.needed).toBe(0); // the length of the next message is not known yet
    const partial = readFrames(q.subarray(0, 6), true);
    expect(partial).toMatchObject({ frames: [], needed: q.length });
    expect(readFrames(Buffer.concat([read.rest, q.subarray(3)]), true).frames).toHaveLength(1);
  });

  it('recognizes cancel requests and refuses other protocols and impossible lengths', () => {
    expect(readFrames(untyped(80877102, Buffer.alloc(8)), false).frames[0]!.kind).toBe('cancel-request');
    expect(() => readFrames(untyped(131072), false)).toThrow(ProtocolViolation);
    expect(() => readFrames(Buffer.from([0, 0, 0, 2, 0, 0, 0, 0]), false)).toThrow(ProtocolViolation);
    expect(() => readFrames(Buffer.from([0x51, 0, 0, 0, 3]), true)).toThrow(ProtocolViolation);
    expect(() => readFrames(Buffer.from([0x51, 0x7f, 0xff, 0xff, 0xff]), true)).toThrow(ProtocolViolation);
  });

  it('an ErrorResponse carries severity, SQLSTATE and message', () => {
    const e = fatalError('53300', 'too many');
    expect(e[0]).toBe(0x45);
    expect(e.readInt32BE(1)).toBe(e.length - 1);
    expect(e.subarray(5).toString()).toBe('SFATAL\0VFATAL\0C53300\0Mtoo many\0\0');
  });
});
