import type { FastifyError, FastifySchemaValidationError } from 'fastify';

type SchemaErrorDataVar = NonNullable<FastifyError['validationContext']>;

/**
 * Turns Ajv's schema errors into one sentence that names the offending field, e.g.
 * "Field `paid_till` must be a date YYYY-MM-DD or null." Ajv runs with allErrors off,
 * so the first error is the one to report; a failed union (anyOf) is described by all
 * of its branches at once, because its first branch alone would mislead.
 */
export function describeValidationError(
  errors: readonly FastifySchemaValidationError[],
  part: SchemaErrorDataVar | undefined,
): { field: string | undefined; message: string } {
  const first = errors[0];
  if (!first) return { field: undefined, message: 'The request is not valid.' };

  const union = errors.find((e) => e.keyword === 'anyOf' && e.instancePath === first.instancePath);
  const field = fieldName(first);
  const subject = subjectOf(part, field);

  if (first.keyword === 'required') return { field, message: `${subject} is required.` };
  if (first.keyword === 'additionalProperties') return { field, message: `${subject} is not allowed.` };

  const branches = union
    ? errors.filter((e) => e !== union && e.instancePath === union.instancePath && e.schemaPath.startsWith(`${union.schemaPath}/`))
    : [];
  const requirements = branches.length > 0 ? branches.map(requirement) : [requirement(first)];
  return { field, message: `${subject} must ${joinAlternatives(unique(requirements))}.` };
}

/** "be a string", "be null" → "be a string or null". */
function joinAlternatives(requirements: readonly string[]): string {
  const allBe = requirements.every((r) => r.startsWith('be '));
  return allBe ? `be ${requirements.map((r) => r.slice(3)).join(' or ')}` : requirements.join(' or ');
}

function fieldName(error: FastifySchemaValidationError): string | undefined {
  const segments = error.instancePath.split('/').slice(1).map(unescapePointer);
  const extra =
    error.keyword === 'required'
      ? error.params.missingProperty
      : error.keyword === 'additionalProperties'
        ? error.params.additionalProperty
        : undefined;
  if (typeof extra === 'string') segments.push(extra);
  if (segments.length === 0) return undefined;
  return segments.reduce((path, s) => (/^\d+$/.test(s) ? `${path}[${s}]` : path ? `${path}.${s}` : s), '');
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

const PART_NAMES: Readonly<Record<SchemaErrorDataVar, { whole: string; field: string }>> = {
  body: { whole: 'Request body', field: 'Field' },
  params: { whole: 'Path', field: 'Path parameter' },
  querystring: { whole: 'Query string', field: 'Query parameter' },
  headers: { whole: 'Request headers', field: 'Header' },
};

function subjectOf(part: SchemaErrorDataVar | undefined, field: string | undefined): string {
  const names = PART_NAMES[part ?? 'body'];
  return field === undefined ? names.whole : `${names.field} \`${field}\``;
}

const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: 'a string',
  boolean: 'a boolean',
  integer: 'an integer',
  number: 'a number',
  object: 'a JSON object',
  array: 'an array',
  null: 'null',
};

const FORMAT_NAMES: Readonly<Record<string, string>> = {
  date: 'a date YYYY-MM-DD',
  'date-time': 'a date and time in ISO 8601',
  email: 'an email address',
  uri: 'an absolute URL',
};

/** The part after "must": "be a boolean", "match the pattern ^[a-z0-9_]+$". */
function requirement(error: FastifySchemaValidationError): string {
  const p = error.params;
  switch (error.keyword) {
    case 'type': {
      const types = Array.isArray(p.type) ? p.type.map(String) : [String(p.type)];
      return `be ${types.map((t) => TYPE_NAMES[t] ?? t).join(' or ')}`;
    }
    case 'format':
      return `be ${FORMAT_NAMES[String(p.format)] ?? `in the format ${String(p.format)}`}`;
    case 'pattern':
      return `match the pattern ${String(p.pattern)}`;
    case 'minLength':
      return Number(p.limit) === 1 ? 'not be empty' : `be at least ${String(p.limit)} characters long`;
    case 'maxLength':
      return `be at most ${String(p.limit)} characters long`;
    case 'minimum':
      return `be at least ${String(p.limit)}`;
    case 'maximum':
      return `be at most ${String(p.limit)}`;
    case 'minItems':
      return `have at least ${String(p.limit)} items`;
    case 'maxItems':
      return `have at most ${String(p.limit)} items`;
    case 'enum': {
      const allowed = Array.isArray(p.allowedValues) ? p.allowedValues.map((v) => JSON.stringify(v)) : [];
      return allowed.length > 0 ? `be one of ${allowed.join(', ')}` : 'be one of the allowed values';
    }
    case 'const':
      return `be ${JSON.stringify(p.allowedValue)}`;
    default:
      return (error.message ?? 'be valid').replace(/^must /, '');
  }
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
