import { predict, trainLogistic, type LogisticModel } from './logistic.js';
import { auc } from './metrics.js';
import { FEATURE_NAMES, type TrainingRow } from './purchase-features.js';

/**
 * The probability-to-purchase model of a shop (docs/recommendations.md "Purchase
 * prediction"): a logistic regression over purchase-features.ts's rows, or, with too
 * little data to learn from, the shop's base rate alone. Pure.
 */

/** Fewer customers than this, or only one class among them, and no model is trained. */
export const MIN_TRAINING_CUSTOMERS = 20;
/** Rows kept for training, chosen by profile id: past this, more rows change the weights little and cost time. */
export const MAX_TRAINING_ROWS = 50_000;
/** One customer in this many is held out of training to measure the AUC. */
export const HOLDOUT_EVERY = 5;

export interface Predictor {
  /** Null when there was too little to learn from: every answer is then `baseRate`. */
  readonly model: LogisticModel | null;
  /** The share of the customers active before the cut-off who bought after it; 0 with none. */
  readonly baseRate: number;
  readonly trainingSize: number;
  readonly positives: number;
  /** On the held-out customers; null without a model or when they hold one class only. */
  readonly auc: number | null;
}

export interface StoredPredictor {
  readonly features: readonly string[];
  readonly model: LogisticModel;
}

/** Trains on every row but the held-out ones (chosen by profile id, so a rebuild holds out the same customers). */
export function trainPredictor(rows: Iterable<TrainingRow>): Predictor {
  const train: TrainingRow[] = [];
  const holdout: TrainingRow[] = [];
  let customers = 0;
  let positives = 0;
  for (const row of rows) {
    customers++;
    if (row.label) positives++;
    if (mix(row.profileId) % HOLDOUT_EVERY === 0) holdout.push(row);
    else train.push(row);
  }
  const baseRate = customers === 0 ? 0 : positives / customers;
  const trainPositives = train.filter((row) => row.label).length;
  if (customers < MIN_TRAINING_CUSTOMERS || trainPositives === 0 || trainPositives === train.length) {
    return { model: null, baseRate, trainingSize: train.length, positives, auc: null };
  }
  // Past the cap, a sample by profile id: the same customers each build, whatever order they were read in.
  const kept =
    train.length <= MAX_TRAINING_ROWS ? train : train.sort((a, b) => mix(a.profileId) - mix(b.profileId)).slice(0, MAX_TRAINING_ROWS);
  const model = trainLogistic(
    kept.map((row) => row.features),
    kept.map((row) => row.label),
  );
  return {
    model,
    baseRate,
    trainingSize: kept.length,
    positives,
    auc: auc(
      holdout.map((row) => predict(model, row.features)),
      holdout.map((row) => row.label),
    ),
  };
}

/** The probability of one row: the model's, or the base rate without one. Clamped to 0..1 and finite. */
export function probability(predictor: Pick<Predictor, 'model' | 'baseRate'>, features: readonly number[]): number {
  const value = predictor.model === null ? predictor.baseRate : predict(predictor.model, features);
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}

/** The model as stored: with its feature names, so that a model of other features is never applied. */
export function encodeModel(model: LogisticModel): string {
  return JSON.stringify({ features: FEATURE_NAMES, model } satisfies StoredPredictor);
}

/** The stored model, or null when it was made for other features (an older build): the base rate answers until the next. */
export function decodeModel(text: string | null): LogisticModel | null {
  if (text === null) return null;
  const stored = JSON.parse(text) as StoredPredictor;
  const same = stored.features.length === FEATURE_NAMES.length && stored.features.every((name, i) => name === FEATURE_NAMES[i]);
  return same ? stored.model : null;
}

/** A 32-bit mix of a profile id (ids are random below 2^53): an even spread for the hold-out and the sample. */
function mix(id: number): number {
  let h = (id % 4294967296) ^ Math.floor(id / 4294967296);
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  return (h ^ (h >>> 16)) >>> 0;
}
