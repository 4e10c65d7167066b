import { create } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { GetThresholdSeriesResponseSchema, type GetThresholdSeriesRequest } from '@vat/gen/vat/thresholds/v1/thresholds_service_pb';
import { callerOf } from '@vat/platform/principal';
import { invalidArgument } from '@vat/platform/rpc-errors';
import { cumulativeSeries } from '../article59c/series';
import { crossingsOfYear, occurredBy, profileDefaultsFor } from '../article59c/view';
import type { ThresholdsDeps } from '../context';

/**
 * The caller's cumulative counted Article 59c amount of a calendar year by tax-point day (up to today for the
 * current year), from the running totals the projection keeps per day: the series behind the status's figures.
 */
export async function getThresholdSeries(deps: ThresholdsDeps, req: GetThresholdSeriesRequest, ctx: HandlerContext) {
  const today = deps.now().toISOString().slice(0, 10);
  const currentYear = Number(today.slice(0, 4));
  const year = req.year ?? currentYear;
  if (year < 1000 || year > 9999) throw invalidArgument('invalid_year', '`year` must be a calendar year YYYY.');
  if (year > currentYear) throw invalidArgument('year_after_current_year', '`year` must not be later than the current year (UTC).');
  const cutoffDay = year === currentYear ? today : `${year}-12-31`;
  const { accountId } = callerOf(ctx);
  const [release, { position, buckets, crossings }] = await Promise.all([deps.releases.current(), deps.article59cStatus.daily(accountId, year, cutoffDay)]);
  const defaultsFor = await profileDefaultsFor(deps, accountId, buckets);
  const { crossing } = crossingsOfYear(crossings.filter((c) => c.year === year && occurredBy(c, cutoffDay)));
  const series = cumulativeSeries(year, buckets, defaultsFor, (c) => release.thresholds.get(c), crossing);
  return create(GetThresholdSeriesResponseSchema, { year, cutoffDate: cutoffDay, ledgerPosition: position, series });
}
