import {
  ANCHOR_RULES,
  DEVICE_RULES,
  EVENT_IDENTIFIER_RULES,
  MEETING_RULES,
  SURVIVOR_RULE,
} from '../../../src/modules/identity/domain/resolution-rules.js';

/** The rule tables of resolution-rules.ts as the Markdown that docs/identity.md holds. */
export function renderRuleTables(): string[] {
  const code = (value: string | null) => (value === null ? '—' : `\`${value}\``);
  return [
    table(
      ['Situation', 'When', 'Then'],
      Object.entries(ANCHOR_RULES).map(([key, r]) => [code(key), r.when, r.then]),
    ),
    table(
      ['Situation', 'When', 'Action', 'Reason', 'Then'],
      Object.entries(MEETING_RULES).map(([key, r]) => [code(key), r.when, code(r.action), code(r.reason), r.then]),
    ),
    table(
      ['Situation', 'When', 'Then', 'Reported as ignored'],
      Object.entries(EVENT_IDENTIFIER_RULES).map(([key, r]) => [code(key), r.when, r.then, code(r.ignoredBecause)]),
    ),
    table(
      ['Situation', 'When', 'Then', 'Reason'],
      Object.entries(DEVICE_RULES).map(([key, r]) => [code(key), r.when, r.then, code(r.reason)]),
    ),
    table(['When', 'Then'], [[SURVIVOR_RULE.when, SURVIVOR_RULE.then]]),
  ];
}

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
