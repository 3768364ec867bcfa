import { readFileSync } from 'node:fs';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { HttpSmsProvider } from '../../../src/modules/messaging/providers/http-sms.provider.js';
import { MaxProvider } from '../../../src/modules/messaging/providers/max.provider.js';
import { SmppProvider } from '../../../src/modules/messaging/providers/smpp.provider.js';
import { TelegramProvider } from '../../../src/modules/messaging/providers/telegram.provider.js';
import { WhatsappProvider } from '../../../src/modules/messaging/providers/whatsapp.provider.js';

const providers = [new SmppProvider(), new HttpSmsProvider(), new TelegramProvider(), new WhatsappProvider(), new MaxProvider()];
// The page of the SMS and messenger channels, whole.
const doc = readFileSync(new URL('../../../docs/messaging-sms.md', import.meta.url), 'utf8');
const examples = [...doc.matchAll(/```json\n(.*?)\n```/gs)].map((match) => JSON.parse(match[1]!) as Record<string, unknown>);

describe('docs/messaging-sms.md, SMS and messenger channels', () => {
  it('has one example PUT body per vendor', () => {
    expect(examples.map((example) => example.provider).sort()).toEqual(providers.map((provider) => provider.vendor).sort());
  });

  it.each(providers.map((provider) => [provider.vendor, provider] as const))(
    '%s: the example is valid settings and names every secret field',
    (vendor, provider) => {
      const { provider: _name, ...settings } = examples.find((example) => example.provider === vendor)!;
      expect([...Value.Errors(provider.settingsSchema, settings)].map((error) => `${error.path} ${error.message}`)).toEqual([]);
      for (const secret of provider.secretFields) {
        expect(Object.keys(provider.settingsSchema.properties)).toContain(secret);
        expect(doc).toMatch(new RegExp(`\\| \`${secret}\` \\| [^|]*\\*\\*secret\\*\\*`));
      }
    },
  );

  it('refuses settings with an unknown field', () => {
    expect(Value.Check(new TelegramProvider().settingsSchema, { bot_token: '1:AAAAAAAAAAAAAAAAAAAAAAAA', token: 'x' })).toBe(false);
  });
});
