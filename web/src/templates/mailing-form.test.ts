import { describe, expect, it } from 'vitest';
import { codeProblem, mailingBody, mailingChannels, templatesOfMailing } from './mailing-form';
import type { Mailing } from './mailings.queries';

const mailing: Mailing = {
  id: 7,
  code: 'welcome',
  name: 'Welcome',
  email: { subject: 'Hi', html: '<p>Hi</p>' },
  locales: { de: { sms: { body: 'Hallo' } } },
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-02T00:00:00.000Z',
};

describe('the mailing form', () => {
  it('takes the templates alone out of a mailing, and puts the name back for the PUT', () => {
    const templates = templatesOfMailing(mailing);
    expect(templates).toEqual({ email: { subject: 'Hi', html: '<p>Hi</p>' }, locales: { de: { sms: { body: 'Hallo' } } } });
    expect(mailingBody('  Welcome back ', templates)).toEqual({ name: 'Welcome back', ...templates });
    expect(mailingBody('   ', templates).name).toBeNull();
  });

  it("lists a mailing's channels, a locale's counting", () => {
    expect(mailingChannels(templatesOfMailing(mailing))).toEqual(['email', 'sms']);
    expect(mailingChannels({})).toEqual([]);
  });

  it('checks a new code before the server is asked', () => {
    expect(codeProblem('order-shipped')).toBeNull();
    expect(codeProblem('v2.welcome:ru_RU')).toBeNull();
    expect(codeProblem('')).toBe('missing');
    expect(codeProblem('  ')).toBe('missing');
    expect(codeProblem('two words')).toBe('invalid');
    expect(codeProblem('a/b')).toBe('invalid');
    expect(codeProblem('-x')).toBe('invalid');
    expect(codeProblem('x'.repeat(256))).toBe('invalid');
    expect(codeProblem('x'.repeat(255))).toBeNull();
  });
});
