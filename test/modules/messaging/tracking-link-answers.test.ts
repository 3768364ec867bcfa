import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { expectOk, messagingStack, type MessagingStack } from './messaging-setup.js';

/**
 * What the links of a sent email answer when they are not what this server rendered
 * (issue 33, part 6; docs/messaging.md "Tracking"): a click target that cannot be a
 * Location header, and links mangled on the way (truncated, overlong, non-ASCII, with
 * parts missing). None of them answers a 5xx or an envelope that names a parameter: each
 * is the bare 404, and a target that could smuggle a header is never sent in one.
 */

const INJECTION = 'http://x/\r\nSet-Cookie: a=b';

describe.each(TEST_DIALECTS)('answers of malformed tracking links on %s', (dialect) => {
  let s: MessagingStack;
  let sent: { code: string; html: string; click: string; open: string; unsubscribe: string };

  beforeAll(async () => {
    s = await messagingStack(dialect);
    await expectOk(s.admin('PUT', '/channels/email', { smtp_url: 'smtp://127.0.0.1:2525', from: 'Shop <shop@example.org>' }));
    await expectOk(
      s.admin('PUT', '/mailings/transactional/order', {
        email: {
          subject: 'Order',
          html: '<html><body><a href="{{ url }}">from a variable</a> <a href="https://shop.example/ok">fixed</a></body></html>',
        },
      }),
    );
    sent = await send(INJECTION);
  });

  afterAll(async () => {
    await s.t.close();
  });

  async function send(url: string) {
    const { payload } = await expectOk(s.transact({ code: 'order', email: 'links@example.org', variables: { url } }));
    await s.runner.runDue();
    const html = s.email.sent.at(-1)!.message.html;
    const unescape = (text: string) => text.replace(/&amp;/g, '&');
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => unescape(m[1]!));
    const open = unescape(/<img src="([^"]+)"/.exec(html)![1]!);
    const path = (link: string) => {
      const u = new URL(link);
      return `${u.pathname}${u.search}`;
    };
    const links = await s.t.app.services.messageOutcomes.emailLinks(s.shopId, payload.code as string);
    return { code: payload.code as string, html, hrefs, click: path(hrefs[1]!), open: path(open), unsubscribe: path(links.unsubscribe) };
  }

  /** A click link this server signed for the target, as a link of a message sent before targets were checked. */
  async function signedClick(target: string): Promise<string> {
    const link = (await s.t.app.services.messageOutcomes.emailLinks(s.shopId, sent.code)).click(target);
    const u = new URL(link);
    return `${u.pathname}${u.search}`;
  }

  function expectBareNotFound(response: LightMyRequestResponse, label: string) {
    expect({ label, status: response.statusCode, body: response.body, type: response.headers['content-type'] }).toEqual({
      label,
      status: 404,
      body: 'Not found\n',
      type: 'text/plain; charset=utf-8',
    });
    expect(response.headers.location, label).toBeUndefined();
    expect(response.headers['set-cookie'], label).toBeUndefined();
  }

  it('delivers an email whose link target from /transact holds CR/LF, with that link left as written and the others tracked', async () => {
    const { html } = await send(INJECTION);
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!);
    expect(hrefs[0]).toBe(INJECTION);
    expect(hrefs[1]).toContain(`/m/${s.shopId}.`);
    expect(html).not.toContain('%0D%0A');
    expect((await s.t.app.inject({ method: 'GET', url: sent.click })).statusCode).toBe(302);
  });

  it('answers a signed click link whose stored target holds a control character with the bare 404, never a header of it', async () => {
    for (const target of [
      INJECTION,
      'http://x/\nSet-Cookie: a=b',
      'http://x/\rb',
      'http://x/a\tb',
      'http://x/a\u007fb',
      'http://x/a\u0001b',
    ]) {
      const response = await s.t.app.inject({ method: 'GET', url: await signedClick(target) });
      expectBareNotFound(response, JSON.stringify(target));
    }
  });

  it('redirects a click to a target with non-ASCII characters at its percent-encoded address', async () => {
    for (const target of ['https://shop.example/каталог?q=сапоги#низ', 'https://пример.рф/обувь', 'https://shop.example/a b']) {
      const response = await s.t.app.inject({ method: 'GET', url: await signedClick(target) });
      expect({ target, status: response.statusCode, location: response.headers.location }).toEqual({
        target,
        status: 302,
        location: new URL(target).href,
      });
    }
  });

  it('answers the open pixel, the click and the unsubscribe page with the bare 404 for every mangled token or signature', async () => {
    const token = `${s.shopId}.${sent.code}`;
    const mangled = (path: string) => {
      const [, kind, query] = /^\/m\/[^/]+\/(\w)(\?.*)$/.exec(path)!;
      const signature = new URLSearchParams(query).get('s')!;
      const withToken = (t: string) => path.replace(token, t);
      const withSignature = (text: string) => path.replace(`s=${signature}`, text);
      return {
        [`${kind}: token cut short`]: withToken(token.slice(0, -3)),
        [`${kind}: token without its code`]: withToken(s.shopId),
        [`${kind}: token without its shop`]: withToken(`.${sent.code}`),
        [`${kind}: empty token`]: withToken(''),
        [`${kind}: token one character too long`]: withToken(`${token}A`),
        [`${kind}: token past the pattern's length`]: withToken(`${token}${'A'.repeat(80)}`),
        [`${kind}: token past the router's segment length`]: withToken(`${token}${'A'.repeat(600)}`),
        [`${kind}: token in Cyrillic`]: withToken(encodeURIComponent('магазин.код')),
        [`${kind}: token with a bad escape`]: withToken(`${token}%ZZ`),
        [`${kind}: token with an escape that is not UTF-8`]: withToken(`${token}%FF`),
        [`${kind}: signature cut short`]: withSignature(`s=${signature.slice(0, 10)}`),
        [`${kind}: signature one character too long`]: withSignature(`s=${signature}A`),
        [`${kind}: signature past 64 characters`]: withSignature(`s=${'A'.repeat(65)}`),
        [`${kind}: signature of 10,000 characters`]: withSignature(`s=${'A'.repeat(10_000)}`),
        [`${kind}: signature in Cyrillic`]: withSignature(`s=${encodeURIComponent('подпись')}`),
        [`${kind}: signature with an escape that is not UTF-8`]: withSignature('s=%FF%FE'),
        [`${kind}: signature given twice`]: withSignature(`s=${signature}&s=${signature}`),
        [`${kind}: signature as a list`]: withSignature(`s[]=${signature}`),
        [`${kind}: no signature`]: withSignature(''),
        [`${kind}: path cut after the token`]: `/m/${token}`,
        [`${kind}: unknown kind`]: `/m/${token}/x${query}`,
      };
    };
    const target = new URLSearchParams(sent.click.split('?')[1]).get('u')!;
    const cases: Record<string, string> = {
      ...mangled(sent.open),
      ...mangled(sent.click),
      ...mangled(sent.unsubscribe),
      'c: no target': sent.click.replace(/u=[^&]*&/, ''),
      'c: target cut short': sent.click.replace(encodeURIComponent(target), encodeURIComponent(target.slice(0, -2))),
      'c: target past 8,192 characters': sent.click.replace(
        encodeURIComponent(target),
        encodeURIComponent(`${target}${'a'.repeat(8_200)}`),
      ),
      'c: target in Cyrillic': sent.click.replace(encodeURIComponent(target), encodeURIComponent('https://магазин.рф/')),
      'c: target given twice': sent.click.replace('u=', `u=${encodeURIComponent(target)}&u=`),
      'a bare /m/': '/m/',
    };
    const seen: string[] = [];
    for (const [label, url] of Object.entries(cases)) {
      expectBareNotFound(await s.t.app.inject({ method: 'GET', url }), label);
      seen.push(label);
    }
    for (const [label, url] of Object.entries(mangled(sent.unsubscribe))) {
      const response = await s.t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expectBareNotFound(response, `POST ${label}`);
    }
    expect(seen.length).toBeGreaterThan(60);
    // The links themselves still work, and nothing above marked anything.
    expect((await s.t.app.inject({ method: 'GET', url: sent.open })).statusCode).toBe(200);
    expect((await s.t.app.inject({ method: 'GET', url: sent.unsubscribe })).statusCode).toBe(200);
  });
});
