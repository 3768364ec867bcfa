import { systemClock } from '../clock.js';
import type { Config } from '../config.js';
import { formatTable } from '../modules/recommendations/domain/evaluation.js';
import type { EvaluationReport } from '../modules/recommendations/evaluation.service.js';
import { createServices } from '../services.js';
import { openMigratedDatabase } from './database.js';

/**
 * `patron recommendations evaluate --shop ID [--test-days N]` (docs/recommendations.md
 * "Evaluation"): the recommenders and the purchase predictor built from the shop's events
 * before the last N days and measured on those days, printed as a table.
 */
export async function recommendationsEvaluateCommand(
  config: Config,
  command: { readonly shopId: string; readonly testDays: number },
): Promise<string> {
  const { db } = await openMigratedDatabase(config);
  try {
    const services = createServices({ config, db, clock: systemClock });
    const report = await services.recommendationEvaluation.evaluate(command.shopId, { testDays: command.testDays });
    return describeReport(report);
  } finally {
    await db.destroy();
  }
}

export function describeReport(report: EvaluationReport): string {
  const day = (at: number) => new Date(at).toISOString().slice(0, 10);
  const { predictor } = report;
  const aucText = (value: number | null) => (value === null ? 'n/a' : value.toFixed(3));
  return [
    `Trained on events up to ${day(report.cut)}, tested on ${day(report.cut)} .. ${day(report.until)}.`,
    '',
    formatTable(report.rows),
    '',
    predictor.hasModel
      ? `purchase predictor: AUC ${aucText(predictor.auc)} on ${predictor.customers} customers (${predictor.positives} bought in the test period); ` +
        `trained on ${predictor.trainingSize}, held-out AUC ${aucText(predictor.trainedAuc)}`
      : `purchase predictor: too little data to train (${predictor.trainingSize} customers); every answer is the base rate`,
    '',
  ].join('\n');
}
