import type { CoverageRuleInput } from './coverage-manifest';

export type Decision =
  | { status: 'resolved'; rule: CoverageRuleInput; matchedBy: MatchedBy }
  | { status: 'needs_review'; reason: string; rule?: CoverageRuleInput; matchedBy?: MatchedBy };

type MatchedBy = 'exact' | 'ancestor' | 'eu_exact' | 'eu_ancestor';

/**
 * The spec's lookup order over the rules in force: the jurisdiction's rule on the exact code, then on its
 * nearest catalog ancestor, then the EU rules the same way. The first level that has any rule decides:
 * a withdrawn rule, rules that disagree on tax class or supply kind, or a review-only rule give
 * `needs_review` (nothing further up is consulted: a nearer rule is never skipped in favour of a broader one).
 */
export function decide(lineage: readonly string[], jurisdiction: string, rules: readonly CoverageRuleInput[]): Decision {
  for (const [scope, exact, ancestor] of [[jurisdiction, 'exact', 'ancestor'], ['EU', 'eu_exact', 'eu_ancestor']] as const) {
    for (let depth = 0; depth < lineage.length; depth++) {
      const here = rules.filter((r) => r.jurisdiction === scope && r.code === lineage[depth]);
      if (here.length === 0) continue;
      const matchedBy: MatchedBy = depth === 0 ? exact : ancestor;
      const withdrawn = here.find((r) => r.status === 'withdrawn');
      if (withdrawn) return { status: 'needs_review', reason: 'rule_withdrawn', rule: withdrawn, matchedBy };
      if (new Set(here.map((r) => `${r.taxClassId}\u0000${r.supplyKind}`)).size > 1) return { status: 'needs_review', reason: 'conflicting_rules', matchedBy };
      const reviewOnly = here.find((r) => r.status === 'review_only');
      if (reviewOnly) return { status: 'needs_review', reason: reviewOnly.coverage === 'ex' ? 'partial_rule_review_only' : 'rule_review_only', rule: reviewOnly, matchedBy };
      return { status: 'resolved', rule: here[0]!, matchedBy };
    }
  }
  return { status: 'needs_review', reason: 'unmapped' };
}
