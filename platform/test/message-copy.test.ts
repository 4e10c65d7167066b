import { describe, expect, it } from 'vitest';
import { create, equals, fromBinary, fromJson, toBinary, type DescMessage, type MessageShape } from '@bufbuild/protobuf';
import { BytesValueSchema, FileOptions_OptimizeMode, FileOptionsSchema, StructSchema, ValueSchema } from '@bufbuild/protobuf/wkt';
import { ErrorInfoSchema } from '@vat/gen/google/rpc/error_details_pb';
import { ListTaxClassesResponseSchema } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { copyMessage } from '../src/message-copy';

/** The copy is equal, and changing it leaves the original as it was. */
function expectIndependentCopy<D extends DescMessage>(desc: D, original: MessageShape<D>, change: (copy: MessageShape<D>) => void) {
  const before = toBinary(desc, original);
  const copy = copyMessage(desc, original);
  expect(copy).not.toBe(original);
  expect(equals(desc, copy, original)).toBe(true);
  expect(copy).toEqual(original);
  change(copy);
  expect(toBinary(desc, copy)).not.toEqual(before);
  expect(toBinary(desc, original)).toEqual(before);
}

describe('copyMessage', () => {
  it('copies nested messages and lists, keeping unset optional fields unset', () => {
    const original = create(ListTaxClassesResponseSchema, {
      items: [
        { id: 'standard', name: 'Standard', tags: ['default'], previewRateBps: 1900, rates: [{ country: 'DE', rateBps: 1900, sources: [{ sourceId: 'tedb' }] }] },
        { id: 'books', name: 'Books', tags: ['reduced', 'annex_iii'], annexIiiPoints: ['6'] },
      ],
    });
    const copy = copyMessage(ListTaxClassesResponseSchema, original);
    expect('previewRateBps' in copy.items[1]!).toBe(false);
    expectIndependentCopy(ListTaxClassesResponseSchema, original, (c) => c.items[1]!.tags.push('changed'));
    expectIndependentCopy(ListTaxClassesResponseSchema, original, (c) => (c.items[0]!.rates[0]!.sources[0]!.sourceId = 'changed'));
    expectIndependentCopy(ListTaxClassesResponseSchema, original, (c) => c.items.pop());
  });

  it('copies maps', () => {
    const original = create(ErrorInfoSchema, { reason: 'currency_mismatch', domain: 'vat', metadata: { country: 'PL' } });
    expectIndependentCopy(ErrorInfoSchema, original, (c) => (c.metadata.country = 'DE'));
  });

  it('copies oneofs, maps of messages and recursive types', () => {
    const original = fromJson(StructSchema, { a: { b: [1, 'x', null, true, { c: 2 }] } });
    expectIndependentCopy(StructSchema, original, (c) => {
      const a = c.fields.a!.kind;
      if (a.case === 'structValue') a.value.fields.b = create(ValueSchema, { kind: { case: 'stringValue', value: 'changed' } });
    });
  });

  it('copies bytes and unknown fields', () => {
    const original = fromBinary(BytesValueSchema, toBinary(ErrorInfoSchema, create(ErrorInfoSchema, { reason: 'r', domain: 'unknown to BytesValue' })));
    expect(original.$unknown).toHaveLength(1);
    expectIndependentCopy(BytesValueSchema, original, (c) => (c.value[0] = 0));
    expectIndependentCopy(BytesValueSchema, original, (c) => (c.$unknown![0]!.data[2] = 0));
  });

  it('keeps the defaults of a proto2 message', () => {
    const original = create(FileOptionsSchema, { javaPackage: 'eu.vat' });
    const copy = copyMessage(FileOptionsSchema, original);
    expect(Object.getPrototypeOf(copy)).toBe(Object.getPrototypeOf(original));
    expect(copy.optimizeFor).toBe(FileOptions_OptimizeMode.SPEED);
    expectIndependentCopy(FileOptionsSchema, original, (c) => (c.javaPackage = 'changed'));
  });
});
