import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderRuleTables } from './render-rules.js';

describe('docs/identity.md', () => {
  const doc = fs.readFileSync(new URL('../../../docs/identity.md', import.meta.url), 'utf8');

  it.each(renderRuleTables().map((table, i) => [i + 1, table] as const))(
    'reproduces rule table %i of domain/resolution-rules.ts word for word',
    (_n, table) => {
      expect(doc).toContain(table);
    },
  );
});
