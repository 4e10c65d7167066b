/**
 * The fixed rules of the Article 59c threshold and the IOSS consignment ceiling (Directive 2006/112/EC).
 * Amounts are integer minor units; nothing here ever converts a currency.
 */

/** Names the rule set below; answers carry it as `policy_version`. */
export const POLICY_VERSION = 'article59c-policy/v1';

/**
 * From this year on, goods count only when their dispatch begins in the supplier's establishment State
 * (Art. 59c(1)(b) as amended by Council Directive (EU) 2025/516, applying from 1 January 2027).
 */
export const GOODS_DISPATCH_RULE_FROM_YEAR = 2027;

/** IOSS: one consignment of intrinsic value up to EUR 150 (Art. 369l), in euro cents. */
export const IOSS_CEILING_MINOR = 15000n;

/** The warning band: within 10 percent of a threshold (at or above 90 percent of it). */
export const WARNING_BAND_PERCENT = 90n;

export const DISCLAIMER =
  'Threshold figures are computed from committed supply events and the reviewed Article 59c threshold release; they are not legal advice.';
