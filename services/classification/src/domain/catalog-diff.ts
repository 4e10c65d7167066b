type Labelled = { code: string; selfText: string; legalText: string };

const SAMPLE = 200;

/** Added, removed and relabelled codes of a candidate against a base edition (counts plus the first 200 of each). */
export function catalogDiff(base: readonly Labelled[] | undefined, candidate: readonly Labelled[], baseRef: Record<string, unknown> | null): Record<string, unknown> {
  if (!base) return { base: null, added: candidate.length, removed: 0, relabelled: 0, added_codes: candidate.slice(0, SAMPLE).map((c) => c.code), removed_codes: [], relabelled_codes: [] };
  const before = new Map(base.map((c) => [c.code, c]));
  const added: string[] = [];
  const relabelled: string[] = [];
  for (const c of candidate) {
    const b = before.get(c.code);
    if (!b) added.push(c.code);
    else if (b.selfText !== c.selfText || b.legalText !== c.legalText) relabelled.push(c.code);
    before.delete(c.code);
  }
  const removed = [...before.keys()];
  return {
    base: baseRef,
    added: added.length,
    removed: removed.length,
    relabelled: relabelled.length,
    added_codes: added.slice(0, SAMPLE),
    removed_codes: removed.slice(0, SAMPLE),
    relabelled_codes: relabelled.slice(0, SAMPLE),
  };
}
