/**
 * The bare ceiling measured a second time, after Patron's runs: on a shared machine the
 * speed of the cores changes within minutes (the same bare app may run nearly twice as fast
 * in one run as in another a few minutes later), and a ratio or a paced rate
 * taken from a bare run that fell into a slow spell says little. The first measurement
 * stays the one the targets are judged on (the paced runs are offered a share of it
 * before the second exists); this says whether it can be trusted.
 */

/** Past this difference between the two bare measurements a run's figures are flagged. */
export const BARE_DRIFT_LIMIT = 0.15;

export function describeBareDrift(what: string, first: number, again: number): string {
  const change = again / first - 1;
  const line = `  ${what} again after Patron: ${again.toFixed(0)}/s (${change >= 0 ? '+' : ''}${(change * 100).toFixed(0)} % of the first)`;
  if (Math.abs(change) <= BARE_DRIFT_LIMIT) return line;
  return `${line}\n  NOTE  the machine's speed changed during the run by more than ${BARE_DRIFT_LIMIT * 100} %: its ratios and paced rate are not comparable with other runs`;
}
