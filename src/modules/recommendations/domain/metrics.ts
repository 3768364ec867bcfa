/**
 * Offline evaluation of recommenders: held-out purchases against what a recommender would
 * have answered. Relevance is binary (bought or not). Pure.
 */

export interface RankingCase {
  /** In rank order; a repeated id counts once, where it first appears. */
  readonly recommended: readonly string[];
  readonly relevant: ReadonlySet<string>;
}

/**
 * Cases without a relevant item are left out of every average: nothing could be hit in
 * them, and counting them would make every recommender look alike. 0 when none is left.
 */
function average(cases: readonly RankingCase[], perCase: (hits: readonly boolean[], relevant: number) => number, k: number): number {
  let sum = 0;
  let counted = 0;
  for (const item of cases) {
    if (item.relevant.size === 0) continue;
    sum += perCase(hitsAtK(item, k), item.relevant.size);
    counted++;
  }
  return counted === 0 ? 0 : sum / counted;
}

/** Whether each of the first k distinct recommendations is relevant. */
function hitsAtK(item: RankingCase, k: number): boolean[] {
  const seen = new Set<string>();
  const hits: boolean[] = [];
  for (const id of item.recommended) {
    if (hits.length >= k) break;
    if (seen.has(id)) continue;
    seen.add(id);
    hits.push(item.relevant.has(id));
  }
  return hits;
}

/** Share of cases with at least one relevant item in the top k. */
export function hitRateAtK(cases: readonly RankingCase[], k: number): number {
  return average(cases, (hits) => (hits.includes(true) ? 1 : 0), k);
}

/** Mean share of each case's relevant items found in its top k. */
export function recallAtK(cases: readonly RankingCase[], k: number): number {
  return average(cases, (hits, relevant) => hits.filter(Boolean).length / relevant, k);
}

/** Mean DCG@k over the best DCG@k possible for the case's number of relevant items. */
export function ndcgAtK(cases: readonly RankingCase[], k: number): number {
  return average(
    cases,
    (hits, relevant) => {
      let dcg = 0;
      hits.forEach((hit, rank) => {
        if (hit) dcg += 1 / Math.log2(rank + 2);
      });
      let ideal = 0;
      for (let rank = 0; rank < Math.min(relevant, k); rank++) ideal += 1 / Math.log2(rank + 2);
      return ideal === 0 ? 0 : dcg / ideal;
    },
    k,
  );
}

/**
 * Area under the ROC curve: the chance that a random positive scores above a random
 * negative, a tie counting half. From ranks (Mann–Whitney), ties given their average
 * rank, in O(n log n). Null when one class is absent, where it is undefined.
 */
export function auc(scores: readonly number[], labels: readonly boolean[]): number | null {
  if (scores.length !== labels.length) throw new RangeError(`auc: ${scores.length} scores for ${labels.length} labels.`);
  const order = scores.map((_, index) => index).sort((a, b) => (scores[a] as number) - (scores[b] as number));
  let positives = 0;
  let positiveRankSum = 0;
  for (let start = 0; start < order.length; ) {
    let end = start;
    while (end + 1 < order.length && scores[order[end + 1] as number] === scores[order[start] as number]) end++;
    // Ranks start at 1; the tied run start..end shares the mean of its ranks.
    const rank = (start + end) / 2 + 1;
    for (let position = start; position <= end; position++) {
      if (labels[order[position] as number]) {
        positives++;
        positiveRankSum += rank;
      }
    }
    start = end + 1;
  }
  const negatives = scores.length - positives;
  if (positives === 0 || negatives === 0) return null;
  return (positiveRankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}
