import { IOSS_CEILING_MINOR, WARNING_BAND_PERCENT } from './policy';

type IossCheck = { thresholdMinor: bigint; currentMinor: bigint; remainingMinor: bigint; percentageUsed: number; exceeded: boolean; warning: boolean };

/** One consignment's intrinsic value (EUR cents) against EUR 150; no aggregation across consignments. */
export function checkIossConsignment(amountMinor: bigint): IossCheck {
  const exceeded = amountMinor > IOSS_CEILING_MINOR;
  return {
    thresholdMinor: IOSS_CEILING_MINOR,
    currentMinor: amountMinor,
    remainingMinor: exceeded ? 0n : IOSS_CEILING_MINOR - amountMinor,
    percentageUsed: Number((amountMinor * 100n) / IOSS_CEILING_MINOR),
    exceeded,
    warning: !exceeded && amountMinor * 100n >= IOSS_CEILING_MINOR * WARNING_BAND_PERCENT,
  };
}
