/**
 * A channel's settings form, drawn from the vendor's own settings schema
 * (GET …/channels/{channel}/vendors) and saved as the PUT takes it (docs/messaging.md,
 * "Configuration"). Secrets are write-only: their inputs start empty, and an empty one
 * sends back the masked value the GET answered, which keeps the stored secret.
 */

export type FieldKind = 'text' | 'long-text' | 'number' | 'boolean' | 'choice' | 'json';

export interface FieldSpec {
  readonly name: string;
  readonly kind: FieldKind;
  readonly required: boolean;
  readonly secret: boolean;
  readonly description: string | undefined;
  readonly choices: readonly string[];
}

/** What the inputs hold: text for every kind but a checkbox. */
export type FormValues = Readonly<Record<string, string | boolean>>;

type Schema = Readonly<Record<string, unknown>>;

function isObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The literal choices of an enum (`enum`, or TypeBox's `anyOf` of `const`s); empty when it is not one. */
function choicesOf(schema: Schema): string[] {
  if (Array.isArray(schema.enum)) return schema.enum.map(String);
  if (Array.isArray(schema.anyOf) && schema.anyOf.every((s) => isObject(s) && 'const' in s)) {
    return schema.anyOf.map((s) => String((s as Schema).const));
  }
  return [];
}

function kindOf(schema: Schema): FieldKind {
  if (choicesOf(schema).length > 0) return 'choice';
  switch (schema.type) {
    case 'boolean':
      return 'boolean';
    case 'integer':
    case 'number':
      return 'number';
    case 'string':
      return typeof schema.maxLength === 'number' && schema.maxLength > 4096 ? 'long-text' : 'text';
    default:
      return 'json';
  }
}

/** The fields of a vendor's settings, in the schema's order, required ones first. */
export function fieldsOf(settingsSchema: unknown, secretFields: readonly string[]): FieldSpec[] {
  if (!isObject(settingsSchema) || !isObject(settingsSchema.properties)) return [];
  const required = new Set(Array.isArray(settingsSchema.required) ? settingsSchema.required.map(String) : []);
  const fields = Object.entries(settingsSchema.properties).map(([name, raw]): FieldSpec => {
    const schema = isObject(raw) ? raw : {};
    return {
      name,
      kind: kindOf(schema),
      required: required.has(name),
      secret: secretFields.includes(name),
      description: typeof schema.description === 'string' ? schema.description : undefined,
      choices: choicesOf(schema),
    };
  });
  return [...fields.filter((f) => f.required), ...fields.filter((f) => !f.required)];
}

/** A channel's settings as the GET answers them, per vendor. */
export interface StoredChannel {
  readonly vendors: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly ratePerSecond: number | null;
}

/** Splits the GET's body (`{"provider", …}` or one object per vendor, and `rate_per_second`) per vendor. */
export function parseStored(body: Readonly<Record<string, unknown>> | undefined): StoredChannel {
  if (!body) return { vendors: {}, ratePerSecond: null };
  const { rate_per_second: rate, provider, ...rest } = body;
  const ratePerSecond = typeof rate === 'number' ? rate : null;
  if (typeof provider === 'string') return { vendors: { [provider]: rest }, ratePerSecond };
  const vendors: Record<string, Readonly<Record<string, unknown>>> = {};
  for (const [key, value] of Object.entries(rest)) if (isObject(value)) vendors[key] = value;
  return { vendors, ratePerSecond };
}

/** The inputs' first values: the stored settings, secrets empty. */
export function initialValues(fields: readonly FieldSpec[], stored: Readonly<Record<string, unknown>> | undefined): FormValues {
  const values: Record<string, string | boolean> = {};
  for (const field of fields) {
    const value = stored?.[field.name];
    if (field.kind === 'boolean') values[field.name] = value === true;
    else if (field.secret || value === undefined || value === null) values[field.name] = '';
    else if (field.kind !== 'json' && typeof value === 'string') values[field.name] = value;
    else if (typeof value === 'number' || typeof value === 'boolean') values[field.name] = String(value);
    else values[field.name] = JSON.stringify(value, null, 2);
  }
  return values;
}

export type BuildResult =
  | { readonly ok: true; readonly settings: Record<string, unknown> }
  | { readonly ok: false; readonly field: string; readonly problem: 'number' | 'json' };

/** One vendor's settings from the inputs; an empty secret keeps the stored one (its masked value sent back). */
export function buildSettings(
  fields: readonly FieldSpec[],
  values: FormValues,
  stored: Readonly<Record<string, unknown>> | undefined,
): BuildResult {
  const settings: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (field.kind === 'boolean') {
      if (value === true || stored?.[field.name] !== undefined) settings[field.name] = value === true;
      continue;
    }
    const text = typeof value === 'string' ? value.trim() : '';
    if (text === '') {
      if (field.secret && stored?.[field.name] !== undefined) settings[field.name] = stored[field.name];
      continue;
    }
    if (field.kind === 'number') {
      const n = Number(text);
      if (!Number.isFinite(n)) return { ok: false, field: field.name, problem: 'number' };
      settings[field.name] = n;
    } else if (field.kind === 'json') {
      try {
        settings[field.name] = JSON.parse(text) as unknown;
      } catch {
        return { ok: false, field: field.name, problem: 'json' };
      }
    } else {
      settings[field.name] = field.kind === 'long-text' ? value : text;
    }
  }
  return { ok: true, settings };
}

/**
 * The PUT's body: `{"provider": vendor, …}` when the vendor is the channel's only one, else
 * one object per vendor with the other stored vendors kept as they were (masked secrets keep theirs).
 */
export function putBody(
  vendor: string,
  settings: Readonly<Record<string, unknown>>,
  stored: StoredChannel,
  ratePerSecond: number | null,
): Record<string, unknown> {
  const others = Object.entries(stored.vendors).filter(([name]) => name !== vendor);
  const body: Record<string, unknown> =
    others.length === 0 ? { provider: vendor, ...settings } : { ...Object.fromEntries(others), [vendor]: settings };
  if (ratePerSecond !== null) body.rate_per_second = ratePerSecond;
  return body;
}

/**
 * The field a refused save names: the vendor check says "`smtp_url` of vendor smtp: …"
 * (a nested one "`dkim.domain` …", shown at `dkim`), the channel's own checks name
 * `rate_per_second` or `provider`.
 */
export function fieldOfSettingsError(message: string): string | undefined {
  const match = /^`([^`]+)`/.exec(message);
  if (!match?.[1]) return undefined;
  return match[1].split('.')[0];
}
