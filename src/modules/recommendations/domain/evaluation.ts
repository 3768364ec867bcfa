import { hitRateAtK, ndcgAtK, recallAtK, type RankingCase } from './metrics.js';

/**
 * The offline evaluation's protocols and table (docs/recommendations.md "Evaluation"),
 * over models built from the events before a cut-off and what happened after it. Pure:
 * the recommenders come in as functions, the cases as data.
 */

/** One test order with at least two distinct items: given its first item, would the others be recommended? */
export interface ItemCase {
  readonly item: string;
  readonly relevant: ReadonlySet<string>;
}

/** One customer with a history before the cut-off: would what they bought after it be recommended? */
export interface CustomerCase {
  readonly profileId: number;
  /** Items the customer bought before the cut-off: no recommender may answer them, and they are no hit. */
  readonly bought: ReadonlySet<string>;
  readonly relevant: ReadonlySet<string>;
}

export type Protocol = 'item' | 'customer';

export interface EvaluationRow {
  readonly protocol: Protocol;
  readonly recommender: string;
  readonly cases: number;
  readonly hitRate10: number;
  readonly recall20: number;
  readonly ndcg10: number;
  /** hit rate@10 and NDCG@10 over popular's in the same protocol; null when popular's is 0. */
  readonly hitVsPopular: number | null;
  readonly ndcgVsPopular: number | null;
}

/** The longest list a recommender is asked for: recall is read at 20. */
export const EVALUATION_DEPTH = 20;

/** Order items in basket order, distinct: the cases of the item protocol. */
export function itemCases(baskets: Iterable<readonly string[]>): ItemCase[] {
  const cases: ItemCase[] = [];
  for (const basket of baskets) {
    const distinct = [...new Set(basket)];
    const [first, ...rest] = distinct;
    if (first !== undefined && rest.length > 0) cases.push({ item: first, relevant: new Set(rest) });
  }
  return cases;
}

/** Scores an item recommender: its answer for the case's item, without that item. */
export function scoreItemRecommender(cases: readonly ItemCase[], recommend: (item: string) => readonly string[]): RankingCase[] {
  return cases.map((c) => ({ recommended: recommend(c.item).filter((id) => id !== c.item), relevant: c.relevant }));
}

/** Scores a personal recommender: its answer for the customer, without what they bought before. */
export function scoreCustomerRecommender<C extends CustomerCase>(
  cases: readonly C[],
  recommend: (c: C) => readonly string[],
): RankingCase[] {
  return cases.map((c) => ({ recommended: recommend(c).filter((id) => !c.bought.has(id)), relevant: c.relevant }));
}

/** The table's rows of one protocol; `popular` must be among the recommenders to fill the ratio columns. */
export function protocolRows(protocol: Protocol, scored: ReadonlyArray<readonly [string, readonly RankingCase[]]>): EvaluationRow[] {
  const measured = scored.map(([recommender, cases]) => ({
    recommender,
    cases: cases.filter((c) => c.relevant.size > 0).length,
    hitRate10: hitRateAtK(cases, 10),
    recall20: recallAtK(cases, 20),
    ndcg10: ndcgAtK(cases, 10),
  }));
  const popular = measured.find((row) => row.recommender === 'popular');
  const ratio = (value: number, base: number | undefined) => (base === undefined || base === 0 ? null : value / base);
  return measured.map((row) => ({
    protocol,
    ...row,
    hitVsPopular: ratio(row.hitRate10, popular?.hitRate10),
    ndcgVsPopular: ratio(row.ndcg10, popular?.ndcg10),
  }));
}

/** The table as text: one line per row, fixed columns, for the CLI and the docs. */
export function formatTable(rows: readonly EvaluationRow[]): string {
  const header = ['protocol', 'recommender', 'cases', 'hit@10', 'recall@20', 'ndcg@10', 'hit ×pop', 'ndcg ×pop'];
  const fixed = (value: number) => value.toFixed(3);
  const times = (value: number | null) => (value === null ? '-' : `${value.toFixed(2)}`);
  const lines = rows.map((row) => [
    row.protocol,
    row.recommender,
    String(row.cases),
    fixed(row.hitRate10),
    fixed(row.recall20),
    fixed(row.ndcg10),
    times(row.hitVsPopular),
    times(row.ndcgVsPopular),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => (line[column] as string).length)));
  const render = (cells: readonly string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] as number))
      .join('  ')
      .trimEnd();
  return [render(header), ...lines.map(render)].join('\n');
}
