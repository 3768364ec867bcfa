/**
 * Bounds on a message's template variables (docs/messaging.md, "Transact"). They are
 * stored with the message and rendered by a delivery job, so one request must not be
 * able to store megabytes or make a template loop over them: a variable of 1 MB is
 * refused with a sentence that says the limit.
 */

export const MAX_VARIABLES_BYTES = 64 * 1024;
export const MAX_VARIABLE_BYTES = 16 * 1024;
export const MAX_VARIABLES = 200;

export type VariablesCheck = { readonly ok: true } | { readonly ok: false; readonly message: string };

export function checkVariables(variables: Readonly<Record<string, unknown>>): VariablesCheck {
  const names = Object.keys(variables);
  if (names.length > MAX_VARIABLES) return { ok: false, message: `At most ${MAX_VARIABLES} variables may be given.` };
  let total = 0;
  for (const name of names) {
    const size = Buffer.byteLength(JSON.stringify(variables[name]) ?? '', 'utf8');
    if (size > MAX_VARIABLE_BYTES) {
      return { ok: false, message: `Variable \`${name}\` is too large: at most ${MAX_VARIABLE_BYTES} bytes.` };
    }
    total += size + Buffer.byteLength(name, 'utf8');
  }
  if (total > MAX_VARIABLES_BYTES) {
    return { ok: false, message: `The variables are too large: at most ${MAX_VARIABLES_BYTES} bytes in all.` };
  }
  return { ok: true };
}
