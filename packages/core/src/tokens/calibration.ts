/**
 * Calibrating the rough estimate: the ratio of a real count (exact tokens, or prompt tokens a provider
 * reported) to the rough estimate of the same messages, trusted within bounds so that a few odd
 * messages cannot skew what it scales.
 */

/** The real/rough ratio is trusted only within these bounds. */
export const MIN_CALIBRATION = 0.25;
export const MAX_CALIBRATION = 4;
/** Rough tokens a sample must cover before its ratio is used. */
export const MIN_CALIBRATION_SAMPLE = 200;

/**
 * `realTokens / roughTokens` clamped to [{@link MIN_CALIBRATION}, {@link MAX_CALIBRATION}], or undefined
 * when the sample covers fewer than {@link MIN_CALIBRATION_SAMPLE} rough tokens or the real count is not
 * a positive number.
 */
export function calibrationRatio(realTokens: number, roughTokens: number): number | undefined {
  if (!(roughTokens >= MIN_CALIBRATION_SAMPLE) || !(realTokens > 0) || !Number.isFinite(realTokens)) return undefined;
  return clampCalibration(realTokens / roughTokens);
}

/** `ratio` within [{@link MIN_CALIBRATION}, {@link MAX_CALIBRATION}] (NaN reads as 1). */
export function clampCalibration(ratio: number): number {
  if (Number.isNaN(ratio)) return 1;
  return Math.min(MAX_CALIBRATION, Math.max(MIN_CALIBRATION, ratio));
}
