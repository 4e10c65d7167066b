/** ISO 4217 minor units where they are not 2 (Intl's display digits differ for some, e.g. HUF 0 — the API counts ISO's). */
const ISO_SCALE: Record<string, number> = {
  BIF: 0, CLP: 0, DJF: 0, GNF: 0, ISK: 0, JPY: 0, KMF: 0, KRW: 0, PYG: 0, RWF: 0, UGX: 0, VND: 0, VUV: 0, XAF: 0, XOF: 0, XPF: 0,
  BHD: 3, IQD: 3, JOD: 3, KWD: 3, LYD: 3, OMR: 3, TND: 3,
};

/** The number of minor-unit digits of a currency (ISO 4217): EUR 2, HUF 2, JPY 0. */
export function currencyScale(currency: string): number {
  return ISO_SCALE[currency] ?? 2;
}

/**
 * An integer amount in minor units, shown in its currency with the locale's separators. Exact: the
 * digits are split as text, never divided as a float, so the figure is the API's to the last cent.
 */
export function formatMinor(minor: number | bigint, currency: string, locale?: string, scale = currencyScale(currency)): string {
  const digits = BigInt(minor);
  const negative = digits < 0n;
  const text = (negative ? -digits : digits).toString().padStart(scale + 1, '0');
  const whole = BigInt(text.slice(0, text.length - scale));
  const fraction = text.slice(text.length - scale);
  const format = new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: scale, maximumFractionDigits: scale });
  return format
    .formatToParts(negative ? -whole : whole)
    .map((p) => (p.type === 'fraction' ? fraction : p.value))
    .join('')
    .replace(/^(-|\u2212)?/, negative && whole === 0n ? '-' : '$1');
}

/** A rate in basis points as a percentage (2000 -> "20 %", 550 -> "5.5 %"), exact. */
export function formatBps(bps: number): string {
  const whole = Math.trunc(bps / 100);
  const rest = Math.abs(bps % 100);
  return `${whole}${rest === 0 ? '' : `.${String(rest).padStart(2, '0').replace(/0$/, '')}`} %`;
}

/** ISO 8601 date (YYYY-MM-DD) of a timestamp or date text, as the API's dates are written. */
export function isoDate(value: string | null | undefined): string {
  return value ? value.slice(0, 10) : '—';
}

/** ISO 8601 date and time to the minute, UTC. */
export function isoDateTime(value: string | null | undefined): string {
  return value ? `${value.slice(0, 10)} ${value.slice(11, 16)} UTC` : '—';
}

/** The quarter before or after `YYYY-Qn`. */
export function shiftQuarter(period: string, by: number): string {
  const m = /^(\d{4})-Q([1-4])$/.exec(period);
  if (!m) return period;
  const index = Number(m[1]) * 4 + Number(m[2]) - 1 + by;
  return `${Math.floor(index / 4)}-Q${(index % 4) + 1}`;
}

/** The last quarter that has ended on `today` (the first one that can be locked). */
export function lastEndedQuarter(today = new Date()): string {
  const q = Math.floor(today.getUTCMonth() / 3) + 1;
  return shiftQuarter(`${today.getUTCFullYear()}-Q${q}`, -1);
}
