/**
 * A small logistic regression for the probability to purchase: few features, a few
 * thousand customers, trained in the rebuild job. Batch gradient descent from zero
 * weights for a fixed number of epochs, so the same rows always give the same model.
 * Pure.
 */

export interface LogisticModel {
  readonly weights: readonly number[];
  readonly bias: number;
  /** The training rows' mean and spread per feature: a prediction scales its input alike. */
  readonly means: readonly number[];
  readonly scales: readonly number[];
}

export interface TrainOptions {
  readonly epochs?: number;
  readonly learningRate?: number;
  /** L2 penalty on the weights (not the bias): keeps a feature that separates the training set from growing without bound. */
  readonly l2?: number;
}

export const DEFAULT_EPOCHS = 300;
export const DEFAULT_LEARNING_RATE = 0.5;
export const DEFAULT_L2 = 0.01;

export function trainLogistic(rows: readonly (readonly number[])[], labels: readonly boolean[], options: TrainOptions = {}): LogisticModel {
  if (rows.length !== labels.length) throw new RangeError(`trainLogistic: ${rows.length} rows for ${labels.length} labels.`);
  const width = rows[0]?.length ?? 0;
  for (const row of rows) {
    if (row.length !== width) throw new RangeError(`trainLogistic: rows of ${width} and ${row.length} features.`);
  }
  const { means, scales } = standardization(rows, width);
  const scaled = rows.map((row) => row.map((value, feature) => (value - (means[feature] ?? 0)) / (scales[feature] ?? 1)));
  const epochs = options.epochs ?? DEFAULT_EPOCHS;
  const rate = options.learningRate ?? DEFAULT_LEARNING_RATE;
  const l2 = options.l2 ?? DEFAULT_L2;
  const weights = new Array<number>(width).fill(0);
  let bias = 0;
  const count = rows.length;
  for (let epoch = 0; epoch < epochs && count > 0; epoch++) {
    const gradient = new Array<number>(width).fill(0);
    let biasGradient = 0;
    for (let index = 0; index < count; index++) {
      const row = scaled[index] as number[];
      const error = sigmoid(bias + dot(weights, row)) - (labels[index] ? 1 : 0);
      biasGradient += error;
      for (let feature = 0; feature < width; feature++) gradient[feature] = (gradient[feature] ?? 0) + error * (row[feature] ?? 0);
    }
    for (let feature = 0; feature < width; feature++) {
      const weight = weights[feature] ?? 0;
      weights[feature] = weight - rate * ((gradient[feature] ?? 0) / count + l2 * weight);
    }
    bias -= (rate * biasGradient) / count;
  }
  return { weights, bias, means, scales };
}

/** The probability, 0..1, that the row is a positive. */
export function predict(model: LogisticModel, features: readonly number[]): number {
  let sum = model.bias;
  model.weights.forEach((weight, feature) => {
    sum += (weight * ((features[feature] ?? 0) - (model.means[feature] ?? 0))) / (model.scales[feature] ?? 1);
  });
  return sigmoid(sum);
}

/** Written to stay finite: exp of a large positive argument would overflow. */
export function sigmoid(x: number): number {
  if (x >= 0) return 1 / (1 + Math.exp(-x));
  const e = Math.exp(x);
  return e / (1 + e);
}

function dot(weights: readonly number[], row: readonly number[]): number {
  let sum = 0;
  for (let feature = 0; feature < weights.length; feature++) sum += (weights[feature] ?? 0) * (row[feature] ?? 0);
  return sum;
}

/** A feature that never varies gets scale 1: it is then 0 everywhere and learns nothing. */
function standardization(rows: readonly (readonly number[])[], width: number): { means: number[]; scales: number[] } {
  const means = new Array<number>(width).fill(0);
  const scales = new Array<number>(width).fill(1);
  if (rows.length === 0) return { means, scales };
  for (let feature = 0; feature < width; feature++) {
    let sum = 0;
    for (const row of rows) sum += row[feature] ?? 0;
    const mean = sum / rows.length;
    let squares = 0;
    for (const row of rows) squares += ((row[feature] ?? 0) - mean) ** 2;
    const deviation = Math.sqrt(squares / rows.length);
    means[feature] = mean;
    scales[feature] = deviation > 0 ? deviation : 1;
  }
  return { means, scales };
}
