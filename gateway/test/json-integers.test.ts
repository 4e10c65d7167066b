import { describe, expect, it } from 'vitest';
import { num, replyJson } from '../src/json';

describe('int64 fields in JSON answers', () => {
  it('are plain numbers within 2^53 and exact integers beyond, never strings', () => {
    const body = { safe: num(9_007_199_254_740_991n), above: num(9_007_199_254_740_993n), below: num(-9_007_199_254_740_993n), text: 'x' };
    expect(replyJson(body)).toBe('{"safe":9007199254740991,"above":9007199254740993,"below":-9007199254740993,"text":"x"}');
  });
});
