import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import {
  maskSecret,
  restoreMasked,
  secretFieldsOf,
  secretStates,
  secretValuesOf,
  splitChannelBody,
} from '../../../src/modules/messaging/domain/channel-settings.js';
import { htmlToText } from '../../../src/modules/messaging/domain/html-text.js';
import { chooseLocale, templatesFor } from '../../../src/modules/messaging/domain/mailing.js';
import { mobilePushData } from '../../../src/modules/messaging/domain/outgoing.js';
import { planDeliveries, type RecipientFacts } from '../../../src/modules/messaging/domain/recipients.js';
import { TokenBucket } from '../../../src/modules/messaging/domain/token-bucket.js';
import { checkVariables } from '../../../src/modules/messaging/domain/variables.js';
import { TemplateRenderer, templateScope } from '../../../src/modules/messaging/render.js';
import { SecretBox } from '../../../src/modules/messaging/secret-box.js';

describe('channel settings shape', () => {
  it('reads the provider form, the per-vendor form and the email core form', () => {
    expect(splitChannelBody({ provider: 'smpp', host: 'h', rate_per_second: 5 }, ['smpp'], undefined)).toEqual({
      ok: true,
      vendors: { smpp: { host: 'h' } },
      ratePerSecond: 5,
    });
    expect(splitChannelBody({ fcm: { a: 1 }, apns: { b: 2 } }, ['fcm', 'apns'], undefined)).toEqual({
      ok: true,
      vendors: { fcm: { a: 1 }, apns: { b: 2 } },
      ratePerSecond: null,
    });
    expect(splitChannelBody({ smtp_url: 'smtp://h', from: 'f' }, ['smtp'], 'smtp')).toMatchObject({
      vendors: { smtp: { smtp_url: 'smtp://h', from: 'f' } },
    });
    expect(splitChannelBody({ host: 'h' }, ['smpp'], undefined)).toMatchObject({ ok: false });
    expect(splitChannelBody({ provider: 'x', rate_per_second: 0 }, [], undefined)).toMatchObject({ ok: false });
  });

  it('masks secrets write-only: a URL keeps its host and path, never a login, password or query value; anything else is ****', () => {
    expect(maskSecret('smtps://u:p%40ss@mail.example:465')).toBe('smtps://****:****@mail.example:465');
    expect(maskSecret('https://sms.example/send?api_id=k3y-0123456789&to=x')).toBe('https://sms.example/send?api_id=****&to=****');
    expect(maskSecret('short')).toBe('****');
    expect(maskSecret('0123456789abcdefWXYZ')).toBe('****');
    expect(maskSecret({ private_key: 'pem' })).toBe('****');
    expect(secretFieldsOf({ smtp_url: 'smtp://u:p@h', plain: 'smtp://h', token: 'x' }, ['token'])).toEqual(['smtp_url', 'token']);
    expect(secretFieldsOf({ url: 'https://gw.example/send?key=1', base: 'https://gw.example/' }, [])).toEqual(['url']);
  });

  it('takes a masked secret back as the stored one, and a URL edited around its masked parts keeps the stored credentials', () => {
    const stored = 'smtp://mailer:s3cret@old.example:587?starttls=required';
    expect(restoreMasked(maskSecret(stored), stored)).toBe(stored);
    expect(restoreMasked('smtp://****:****@new.example:2525?starttls=****', stored)).toBe(
      'smtp://mailer:s3cret@new.example:2525?starttls=required',
    );
    expect(restoreMasked('smtp://other:pw@new.example', stored)).toBe('smtp://other:pw@new.example');
    expect(restoreMasked('****', 'bot-token-0123456789')).toBe('bot-token-0123456789');
    expect(restoreMasked('new-token', 'bot-token-0123456789')).toBe('new-token');
  });

  it('lists secret states without values, and the secret texts to cut out of vendor errors', () => {
    expect(secretStates({ url: 'https://gw.example/?k=1', token: 'abc' }, ['token', 'password'])).toEqual({
      token: 'set',
      password: 'not_set',
      url: 'set',
    });
    expect(secretValuesOf({ smtp_url: 'smtp://u:p%40ssword@h:25?starttls=required', from: 'a@b' }, ['smtp_url']).sort()).toEqual(
      ['p%40ssword', 'p@ssword', 'smtp://u:p%40ssword@h:25?starttls=required'].sort(),
    );
    expect(secretValuesOf({ extra_fields: { api_id: 'abcdef0123456789', sender: 'Shop' } }, ['extra_fields'])).toEqual([
      'abcdef0123456789',
    ]);
  });
});

describe('SecretBox', () => {
  it('generates one key file on first need, reuses it, and refuses ciphertext that was changed', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'patron-key-'));
    try {
      const box = new SecretBox({ secretKey: undefined, dataDir: dir });
      const sealed = await box.seal('hunter2');
      expect(sealed).toMatch(/^sealed:v1:/);
      expect(sealed).not.toContain('hunter2');
      const file = await fs.readFile(path.join(dir, 'secret.key'), 'utf8');
      expect(file.trim()).toMatch(/^[0-9a-f]{64}$/);
      expect((await fs.stat(path.join(dir, 'secret.key'))).mode & 0o777).toBe(0o600);
      // A second process (a new box) reads the same key.
      expect(await new SecretBox({ secretKey: undefined, dataDir: dir }).open(sealed)).toBe('hunter2');
      // Flip one bit of the ciphertext itself: changing the last base64 characters may only
      // touch padding bits, which decode to the same bytes.
      const [head, body] = [
        sealed.slice(0, sealed.lastIndexOf('.') + 1),
        Buffer.from(sealed.slice(sealed.lastIndexOf('.') + 1), 'base64url'),
      ];
      body[0] = body[0]! ^ 1;
      const tampered = `${head}${body.toString('base64url')}`;
      await expect(box.open(tampered)).rejects.toThrow('cannot be decrypted');
      await expect(new SecretBox({ secretKey: 'b'.repeat(64), dataDir: dir }).open(sealed)).rejects.toThrow('cannot be decrypted');
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('uses PATRON_SECRET_KEY when given, writing no file', async () => {
    const dir = path.join(os.tmpdir(), `patron-none-${process.pid}`);
    const box = new SecretBox({ secretKey: 'c'.repeat(64), dataDir: dir });
    expect(await box.open(await box.seal('x'))).toBe('x');
    await expect(fs.stat(dir)).rejects.toThrow();
  });
});

describe('templates', () => {
  it('chooses the exact locale, else its language, else the default', () => {
    expect(chooseLocale(['de', 'pt-BR'], 'pt-br')).toBe('pt-BR');
    expect(chooseLocale(['de', 'pt-BR'], 'de_AT')).toBe('de');
    expect(chooseLocale(['de'], 'fr')).toBeUndefined();
    const set = templatesFor(
      { sms: { body: 'en' }, email: { subject: 'en', html: 'en' }, locales: { de: { sms: { body: 'de' } } } },
      'de-DE',
    );
    expect(set).toEqual({ sms: { body: 'de' }, email: { subject: 'en', html: 'en' } });
  });

  it('tells which templates may read the recipient, so that a delivery reads the profile only for them', async () => {
    const renderer = new TemplateRenderer({ clock: new ManualClock(), limits: { limitMs: 500, budgetMsPerSecond: 500 } });
    const reads = (html: string) => renderer.readsProfile({ email: { subject: 'Order {{ order }}', html } }, 'email');
    expect(reads('<p>Order {{ order }} of {{ variables.total }}</p>')).toBe(false);
    expect(reads('<p>Hello {{ profile.first_name }}</p>')).toBe(true);
    // A computed name escapes the engine's own analysis; brackets count as reading it.
    const computed = '{% assign k = "prof" | append: "ile" %}{{ [k].email }}';
    expect(reads(computed)).toBe(true);
    const rendered = await renderer.render(
      'shop',
      { email: { subject: 's', html: computed } },
      'email',
      templateScope({}, { email: 'ann@x.example' }),
    );
    expect(rendered?.html).toBe('ann@x.example');
    expect(renderer.readsProfile({ email: { subject: 's', html: 'x' } }, 'sms')).toBe(false);
  });

  it('derives the text part from HTML', () => {
    const html =
      '<html><head><style>p{}</style></head><body><h1>Hi&nbsp;Ann</h1><p>See <a href="https://x.example/o">your order</a> &amp; more.<br>Bye</p><ul><li>one</li></ul></body></html>';
    expect(htmlToText(html)).toBe('Hi Ann\nSee your order (https://x.example/o) & more.\nBye\n- one');
  });

  it('bounds the variables: a variable of 1 MB is refused with the limit', () => {
    expect(checkVariables({ a: 'x' })).toEqual({ ok: true });
    expect(checkVariables({ big: 'x'.repeat(1024 * 1024) })).toEqual({
      ok: false,
      message: 'Variable `big` is too large: at most 16384 bytes.',
    });
    const many = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`v${i}`, 'x'.repeat(10_000)]));
    expect(checkVariables(many)).toMatchObject({ ok: false, message: expect.stringContaining('at most 65536 bytes in all') });
  });
});

describe('delivery planning', () => {
  const facts: RecipientFacts = {
    email: 'a@example.org',
    phone: '79001234567',
    telegramId: null,
    emailFlag: undefined,
    smsFlag: false,
    pushTokens: [{ token: 't1', platform: 'ios' }],
    extra: {},
  };

  it('sends where reachable and subscribed, records unconfigured channels, skips dead addresses', () => {
    const plan = planDeliveries(
      ['email', 'sms', 'mobile_push', 'whatsapp', 'telegram'],
      facts,
      new Set(['email', 'mobile_push']),
      new Set(['mobile_push:t1']),
    );
    expect(plan.send).toEqual([{ channel: 'email', address: 'a@example.org', platform: null }]);
    expect(plan.unconfigured).toEqual([{ channel: 'whatsapp', address: '79001234567', platform: null }]);
    expect(plan.unsubscribed).toEqual(['sms']);
  });
});

describe('mobile push data', () => {
  const to = { shopId: 'shop-1', code: 'Ab_9-x', type: 'chain' };

  it('names the message by id and type, the shop, what the app shows and the link as a web event', () => {
    expect(
      mobilePushData(to, { title: 'T', body: 'B', url: 'https://shop.example/a?b=1&c="d"', icon: 'https://i', picture: 'https://p' }),
    ).toEqual({
      id: 'Ab_9-x',
      type: 'chain',
      shop_id: 'shop-1',
      title: 'T',
      body: 'B',
      icon: 'https://i',
      image: 'https://p',
      event: '{"type":"web","uri":"https://shop.example/a?b=1&c=\\"d\\""}',
    });
  });

  it('leaves out a link, icon or picture that rendered empty, so the app opens and shows nothing for it', () => {
    expect(mobilePushData(to, { title: 'T', body: '', url: ' ', icon: '', picture: '' })).toEqual({
      id: 'Ab_9-x',
      type: 'chain',
      shop_id: 'shop-1',
      title: 'T',
      body: '',
    });
  });
});

describe('TokenBucket', () => {
  it('lets a burst through, then spaces sends at the rate', () => {
    const bucket = new TokenBucket(10, 2, 0);
    expect([bucket.take(0), bucket.take(0), bucket.take(0), bucket.take(0)]).toEqual([0, 0, 100, 200]);
    expect(bucket.take(1000)).toBe(0);
  });
});
