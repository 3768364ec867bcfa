/**
 * The `source` parameter of POST /push (interface.md, "Events", source rules 1-3).
 */

/** contract-notes.md, "POST /push": the allowed values of recommended_by. */
export const RECOMMENDED_BY_VALUES = [
  'dynamic',
  'chain',
  'bulk',
  'transactional',
  'instant_search',
  'full_search',
  'stories',
  'web_push_digest',
  'listing',
] as const;

export type RecommendedBy = (typeof RECOMMENDED_BY_VALUES)[number];

export function isRecommendedBy(value: unknown): value is RecommendedBy {
  return typeof value === 'string' && (RECOMMENDED_BY_VALUES as readonly string[]).includes(value);
}

export type SourceOutcome =
  /** Rule 1: recommended_by and recommended_code come from the source. */
  | { kind: 'applied'; recommendedBy: RecommendedBy; recommendedCode: string }
  /** Rule 2: the source is ignored and both fields are null. */
  | { kind: 'ignored' }
  /** Rule 3: an empty string or a string that is not JSON: 422. */
  | { kind: 'invalid' };

export function interpretSource(raw: unknown): SourceOutcome {
  let value: unknown = raw;
  if (typeof raw === 'string') {
    if (raw.trim() === '') return { kind: 'invalid' };
    try {
      value = JSON.parse(raw);
    } catch {
      return { kind: 'invalid' };
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    // A JSON scalar or array carries no code/from: valid JSON, so rule 2 applies.
    return typeof raw === 'string' ? { kind: 'ignored' } : { kind: 'invalid' };
  }
  const { code, from } = value as Record<string, unknown>;
  const codeText = typeof code === 'number' ? String(code) : code;
  if (typeof codeText !== 'string' || codeText === '' || !isRecommendedBy(from)) return { kind: 'ignored' };
  return { kind: 'applied', recommendedBy: from, recommendedCode: codeText };
}
