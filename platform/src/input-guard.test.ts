import { create } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { SubmitAssignmentRequestSchema } from '@vat/gen/vat/classification/v1/classification_service_pb';
import { CommitSupplyEventsRequestSchema, ResolveClassificationCorrectionRequestSchema } from '@vat/gen/vat/ledger/v1/ledger_service_pb';
import { hasControlCharacter, hasControlCharacterBesidesLineBreaks } from './control-characters';
import { fieldWithControlCharacter } from './input-guard';

/** C0, DEL and C1 (docs/architecture.md: U+0000–U+001F, U+007F–U+009F), including NEL and CSI. */
const CONTROLS = ['\u0000', '\u0007', '\t', '\n', '\r', '\u001f', '\u007f', '\u0080', '\u0085', '\u009b', '\u009f'];
/** Neighbours that are text: space, printable ASCII, NBSP (U+00A0), letters, line and paragraph separators, emoji. */
const TEXT = [' ', '~', '\u00a0', 'é', '\u2028', '\u2029', '\ufeff', '😀'];

describe('one definition of a control character (Unicode Cc: C0, DEL, C1)', () => {
  it('is exactly U+0000–U+001F and U+007F–U+009F', () => {
    for (let c = 0; c <= 0xffff; c++) {
      const expected = c <= 0x1f || (c >= 0x7f && c <= 0x9f);
      expect(hasControlCharacter(`a${String.fromCharCode(c)}b`), c.toString(16)).toBe(expected);
    }
  });

  it('multi-line reference texts may hold TAB, LF and CR, nothing else of it', () => {
    expect(hasControlCharacterBesidesLineBreaks('a\tb\nc\r\n')).toBe(false);
    for (const c of CONTROLS.filter((x) => !['\t', '\n', '\r'].includes(x))) expect(hasControlCharacterBesidesLineBreaks(`a${c}`), JSON.stringify(c)).toBe(true);
  });
});

describe('the services\' input guard', () => {
  it('refuses C0, DEL and C1 in a top-level string, naming the field', () => {
    for (const c of CONTROLS) {
      const hit = fieldWithControlCharacter(ResolveClassificationCorrectionRequestSchema, create(ResolveClassificationCorrectionRequestSchema, { id: 'x', action: 'dismiss', note: `note${c}` }));
      expect(hit, JSON.stringify(c)).toEqual({ field: 'note', path: 'note', reason: 'invalid_note' });
    }
    for (const t of TEXT) expect(fieldWithControlCharacter(ResolveClassificationCorrectionRequestSchema, create(ResolveClassificationCorrectionRequestSchema, { note: `note${t}` })), JSON.stringify(t)).toBeUndefined();
  });

  it('names the item of a batch by its path (events[1].order_reference)', () => {
    for (const field of ['productReference', 'variantReference', 'orderReference'] as const) {
      for (const c of ['\u0085', '\u009b']) {
        const msg = create(CommitSupplyEventsRequestSchema, { events: [{ eventId: 'a' }, { eventId: 'b', [field]: `ref${c}` }] });
        const name = field.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`);
        expect(fieldWithControlCharacter(CommitSupplyEventsRequestSchema, msg)).toEqual({ field: name, path: `events[1].${name}`, reason: `invalid_${name}` });
      }
    }
  });

  it('answers a field\'s declared input_error for anything inside it (attestation.statement -> invalid_attestation)', () => {
    for (const c of ['\u0000', '\u0085', '\u009b']) {
      for (const attestation of [{ statement: `s${c}`, attestedBy: 'x' }, { statement: 's', attestedBy: `x${c}` }]) {
        const hit = fieldWithControlCharacter(SubmitAssignmentRequestSchema, create(SubmitAssignmentRequestSchema, { productReference: 'p', attestation }));
        expect(hit?.reason, JSON.stringify(attestation)).toBe('invalid_attestation');
      }
      for (const over of [{ productReference: `p${c}` }, { variantReference: `v${c}` }]) {
        const hit = fieldWithControlCharacter(SubmitAssignmentRequestSchema, create(SubmitAssignmentRequestSchema, over));
        expect(hit?.reason, JSON.stringify(over)).toBe(`invalid_${Object.keys(over)[0] === 'productReference' ? 'product_reference' : 'variant_reference'}`);
      }
    }
  });
});
