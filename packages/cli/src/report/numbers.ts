/** Number formats shared by the simulate table and the HTML report. */

/** 0.23250 → "$0.2325"; small amounts keep 4 significant digits, large ones 2 decimals. */
export function formatUsd(usd: number): string {
  if (!Number.isFinite(usd)) return "—";
  if (usd === 0) return "$0";
  if (Math.abs(usd) >= 100) return `$${usd.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  return `$${Number(usd.toPrecision(4)).toString()}`;
}

/** 0.8838 → "88.4 %". */
export function formatPercent(share: number, digits = 1): string {
  return Number.isFinite(share) ? `${(share * 100).toFixed(digits)} %` : "—";
}

/** `part / whole` as a share, 0 when `whole` is 0. */
export function shareOf(part: number, whole: number): number {
  return whole === 0 ? 0 : part / whole;
}

/** 12345 → "12,345". */
export function formatTokens(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

/** 14276 → "14.3k", 1200000 → "1.2M" (axis labels). */
export function formatCompact(n: number): string {
  const abs = Math.abs(n);
  if (abs >= 1_000_000) return `${Number((n / 1_000_000).toPrecision(3))}M`;
  if (abs >= 1_000) return `${Number((n / 1_000).toPrecision(3))}k`;
  return `${Number(n.toPrecision(3))}`;
}
