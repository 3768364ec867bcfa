import { expect } from 'vitest';
import { AppError } from '../../src/errors.js';

/** The AppError a call was refused with; the test fails when the call succeeds or throws anything else. */
export async function refusalOf(promise: Promise<unknown>): Promise<AppError> {
  const outcome = await promise.then(
    () => ({ refused: false as const }),
    (error: unknown) => ({ refused: true as const, error }),
  );
  if (!outcome.refused) throw new Error('expected the call to be refused with an AppError, and it succeeded');
  expect(outcome.error).toBeInstanceOf(AppError);
  return outcome.error as AppError;
}
