import type { FastifyInstance } from 'fastify';
import { HttpError, printable } from '../errors';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** An open object (its keys so far, the key being read, the key it sits under) or an open array. */
type Frame = { object: true; keys: Set<string>; expectKey: boolean; lastKey?: string; parentKey?: string } | { object: false };

const invalid = (detail: string) => new HttpError(400, 'invalid_json', detail);

/**
 * Parses a request body as RFC 8259 JSON: strict UTF-8, `JSON.parse` values, and no object with the
 * same key twice (at any depth; `"a"` and `"\u0061"` are the same key). `__proto__` keys and
 * `constructor.prototype` are refused, as Fastify's secure-json-parse did. Throws 400 `invalid_json`.
 */
export function parseJsonBody(bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw invalid('The request body is not valid UTF-8.');
  }
  if (text.trim() === '') throw invalid('The request body is empty; send a JSON object.');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid('The request body is not valid JSON.');
  }
  checkKeys(text);
  return value;
}

/**
 * Walks text that `JSON.parse` accepted and refuses duplicate and forbidden object keys. Only the
 * structure matters here: strings are skipped, and object keys are decoded to compare them.
 */
function checkKeys(text: string): void {
  const stack: Frame[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i;
      let escaped = false;
      for (i++; text.charCodeAt(i) !== 0x22; i++) {
        if (text.charCodeAt(i) === 0x5c /* \ */) {
          escaped = true;
          i++;
        }
      }
      const top = stack[stack.length - 1];
      if (top?.object && top.expectKey) {
        // A key without an escape is its own text (JSON.parse already refused control characters).
        const key = escaped ? (JSON.parse(text.slice(start, i + 1)) as string) : text.slice(start + 1, i);
        if (top.keys.has(key)) throw invalid(`The key "${printable(key)}" appears twice in one object.`);
        if (key === '__proto__' || (key === 'prototype' && top.parentKey === 'constructor')) throw invalid(`The key "${key}" is not allowed.`);
        top.keys.add(key);
        top.lastKey = key;
        top.expectKey = false;
      }
    } else if (c === 0x7b /* { */) {
      const top = stack[stack.length - 1];
      stack.push({ object: true, keys: new Set(), expectKey: true, parentKey: top?.object ? top.lastKey : undefined });
    } else if (c === 0x5b /* [ */) {
      stack.push({ object: false });
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (top?.object) top.expectKey = true;
    }
  }
}

/**
 * Makes `parseJsonBody` the only body parser: `application/json` (charset absent or UTF-8) is parsed,
 * every other media type is refused with 415 `unsupported_media_type` by Fastify.
 */
export function useJsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(req.headers['content-type'] ?? '')?.[1];
    if (charset !== undefined && !/^utf-?8$/i.test(charset)) {
      done(new HttpError(415, 'unsupported_media_type', 'Send the request body as application/json in UTF-8.'), undefined);
      return;
    }
    try {
      done(null, parseJsonBody(body as Buffer));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
}
