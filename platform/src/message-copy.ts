import { ScalarType, type DescField, type DescMessage, type MessageShape } from '@bufbuild/protobuf';

type Copier = (message: any) => any;

const compiled = new WeakMap<DescMessage, Copier>();

/**
 * A deep copy of a message, so a message handed across the in-process boundary is no longer shared,
 * as after the wire. Compiled once per message type into straight-line code (several times faster
 * than walking the object, and far faster than the reflective `clone` of @bufbuild/protobuf, which
 * costs more than encoding and decoding).
 */
export function copyMessage<D extends DescMessage>(desc: D, message: MessageShape<D>): MessageShape<D> {
  return copierFor(desc)(message);
}

function copierFor(desc: DescMessage): Copier {
  let copier = compiled.get(desc);
  if (!copier) {
    copier = compile(desc);
    compiled.set(desc, copier);
  }
  return copier;
}

function compile(desc: DescMessage): Copier {
  const nested: Copier[] = [];
  const copierOf = (sub: DescMessage) => {
    const i = nested.push((m) => (nested[i] = copierFor(sub))(m)) - 1;
    return `n[${i}]`;
  };
  const always: string[] = [];
  const present: string[] = [];
  for (const field of desc.fields) {
    if (field.oneof) continue;
    const key = JSON.stringify(field.localName);
    const value = `m[${key}]`;
    const copy = fieldCopy(field, value, copierOf);
    if (field.fieldKind === 'list' || field.fieldKind === 'map' || ((field.fieldKind === 'scalar' || field.fieldKind === 'enum') && field.presence === IMPLICIT)) always.push(`${key}: ${copy}`);
    else present.push(`if (${value} !== undefined) o[${key}] = ${copy};`);
  }
  for (const oneof of desc.oneofs) always.push(`${JSON.stringify(oneof.localName)}: g(m[${JSON.stringify(oneof.localName)}])`);
  const body = `
    if (Object.getPrototypeOf(m) !== Object.prototype) return g(m);
    const o = { $typeName: m.$typeName, ${always.join(', ')} };
    ${present.join('\n')}
    if (m.$unknown !== undefined) o.$unknown = g(m.$unknown);
    return o;`;
  return new Function('n', 'g', `return (m) => {${body}}`)(nested, copyValue) as Copier;
}

/** proto3 implicit presence: the field always holds a value (its zero value when unset). */
const IMPLICIT = 2;

function fieldCopy(field: DescField, value: string, copierOf: (sub: DescMessage) => string): string {
  switch (field.fieldKind) {
    case 'list':
      if (field.listKind === 'message') return `${value}.map(${copierOf(field.message)})`;
      return field.listKind === 'scalar' && field.scalar === ScalarType.BYTES ? `${value}.map((b) => b.slice())` : `${value}.slice()`;
    case 'message':
      return `${copierOf(field.message)}(${value})`;
    case 'map':
      return `g(${value})`;
    case 'scalar':
      return field.scalar === ScalarType.BYTES ? `${value}.slice()` : value;
    default:
      return value;
  }
}

/** The generic deep copy, for maps, oneofs, unknown fields and messages with a defaults prototype (proto2). */
function copyValue<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copyValue) as T;
  if (value instanceof Uint8Array) return value.slice() as T;
  const proto: unknown = Object.getPrototypeOf(value);
  const out: Record<string, unknown> = proto === Object.prototype ? {} : Object.create(proto as object);
  for (const key of Object.keys(value)) out[key] = copyValue((value as Record<string, unknown>)[key]);
  return out as T;
}
