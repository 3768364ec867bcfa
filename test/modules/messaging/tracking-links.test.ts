import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  linkSignature,
  redirectTarget,
  rewriteEmailHtml,
  trackingUrls,
  unsubscribeHeaders,
  verifyLinkSignature,
} from '../../../src/modules/messaging/domain/tracking-links.js';

const key = Buffer.alloc(32, 7);
const otherKey = Buffer.alloc(32, 8);
const urls = trackingUrls(key, 'https://patron.example.org/', 'ABC123');

function clickTarget(link: string): { target: string; signature: string } {
  const url = new URL(link);
  return { target: url.searchParams.get('u') ?? '', signature: url.searchParams.get('s') ?? '' };
}

describe('tracking links', () => {
  it('builds the open, unsubscribe and click links under the base URL', () => {
    expect(urls.open).toMatch(/^https:\/\/patron\.example\.org\/m\/ABC123\/o\?s=[A-Za-z0-9_-]{22}$/);
    expect(urls.unsubscribe).toMatch(/^https:\/\/patron\.example\.org\/m\/ABC123\/u\?s=[A-Za-z0-9_-]{22}$/);
    const { target, signature } = clickTarget(urls.click('https://shop.example/p?id=1&x=a b'));
    expect(target).toBe('https://shop.example/p?id=1&x=a b');
    expect(verifyLinkSignature(key, 'click', 'ABC123', target, signature)).toBe(true);
  });

  it('refuses a click link whose target, code, kind or key was changed', () => {
    const { target, signature } = clickTarget(urls.click('https://shop.example/'));
    expect(verifyLinkSignature(key, 'click', 'ABC123', 'https://evil.example/', signature)).toBe(false);
    expect(verifyLinkSignature(key, 'click', 'ABC124', target, signature)).toBe(false);
    expect(verifyLinkSignature(key, 'open', 'ABC123', target, signature)).toBe(false);
    expect(verifyLinkSignature(otherKey, 'click', 'ABC123', target, signature)).toBe(false);
    expect(verifyLinkSignature(key, 'click', 'ABC123', target, '')).toBe(false);
    expect(verifyLinkSignature(key, 'click', 'ABC123', target, `${signature}x`)).toBe(false);
  });

  it('signs each target differently, and only a rendered one verifies (property)', () => {
    fc.assert(
      fc.property(fc.webUrl(), fc.webUrl(), (a, b) => {
        const signature = linkSignature(key, 'click', 'C', a);
        expect(verifyLinkSignature(key, 'click', 'C', a, signature)).toBe(true);
        if (a !== b) expect(verifyLinkSignature(key, 'click', 'C', b, signature)).toBe(false);
      }),
    );
  });

  it('rewrites http(s) anchors through click links and leaves other links alone', () => {
    const html =
      '<html><body><a href="https://shop.example/a?x=1&amp;y=2">A</a> <a class="b" href=\'http://shop.example/b\'>B</a>' +
      ' <a href="mailto:x@example.org">m</a> <a href="#top">t</a> <a href="tel:+100">c</a>' +
      ` <a href="${urls.unsubscribe}">unsubscribe</a> <img src="https://shop.example/i.png"></body></html>`;
    const out = rewriteEmailHtml(html, urls);
    const hrefs = [...out.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
    expect(clickTarget(hrefs[0]!).target).toBe('https://shop.example/a?x=1&y=2');
    expect(clickTarget(hrefs[1]!).target).toBe('http://shop.example/b');
    expect(hrefs.slice(2)).toEqual(['mailto:x@example.org', '#top', 'tel:+100', urls.unsubscribe]);
    expect(out).toContain('<img src="https://shop.example/i.png">');
    expect(out).toContain(`<img src="${urls.open.replace(/&/g, '&amp;')}" width="1" height="1"`);
    expect(out.indexOf(urls.open)).toBeLessThan(out.indexOf('</body>'));
  });

  it('leaves a link whose target holds a control character, or is no URL, as written and tracks the others', () => {
    const html =
      '<a href="http://x/\r\nSet-Cookie: a=b">a</a><a href="https://shop.example/a\tb">b</a><a href="https://">c</a><a href="https://shop.example/ok">d</a>';
    const hrefs = [...rewriteEmailHtml(html, urls).matchAll(/href="([^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
    expect(hrefs.slice(0, 3)).toEqual(['http://x/\r\nSet-Cookie: a=b', 'https://shop.example/a\tb', 'https://']);
    expect(clickTarget(hrefs[3]!).target).toBe('https://shop.example/ok');
  });

  it('redirects only to http(s) URLs without control characters, written in ASCII', () => {
    expect(redirectTarget('https://shop.example/каталог?q=сапоги#низ')).toBe(
      'https://shop.example/%D0%BA%D0%B0%D1%82%D0%B0%D0%BB%D0%BE%D0%B3?q=%D1%81%D0%B0%D0%BF%D0%BE%D0%B3%D0%B8#%D0%BD%D0%B8%D0%B7',
    );
    expect(redirectTarget('https://пример.рф/')).toBe('https://xn--e1afmkfd.xn--p1ai/');
    expect(redirectTarget('HTTP://Shop.Example/a b')).toBe('http://shop.example/a%20b');
    for (const refused of [
      'http://x/\r\nSet-Cookie: a=b',
      'http://x/\n',
      'http://x/\t',
      'http://x/\u0000',
      'http://x/\u007f',
      'javascript:alert(1)',
      'mailto:a@b',
      'https://',
      '//x/',
    ]) {
      expect(redirectTarget(refused), JSON.stringify(refused)).toBeNull();
    }
  });

  it('gives a redirect target that a Location header can always hold, whatever the text (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom('http://', 'https://', 'HTTPS://'), fc.string({ unit: 'binary' }), (scheme, rest) => {
        const location = redirectTarget(`${scheme}${rest}`);
        if (location !== null) expect(location).toMatch(/^https?:\/\/[\x21-\x7e]*$/);
      }),
      { numRuns: 2_000 },
    );
  });

  it('adds the pixel at the end of HTML without a body element', () => {
    expect(rewriteEmailHtml('<p>Hi</p>', urls)).toMatch(/^<p>Hi<\/p><img src="[^"]+\/o\?s=/);
  });

  it('gives the RFC 8058 headers', () => {
    expect(unsubscribeHeaders(urls.unsubscribe)).toEqual({
      'List-Unsubscribe': `<${urls.unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
  });
});
