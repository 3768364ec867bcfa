import { describe, expect, it } from 'vitest';
import { htmlProblem } from '../../../src/modules/popups/domain/html.js';
import { isAllowedLink } from '../../../src/modules/popups/domain/links.js';
import { candidatesFor, type Popup } from '../../../src/modules/popups/domain/popup.js';

describe('popup HTML and links', () => {
  it.each([
    '<p>Hi</p>',
    '<a href="https://shop.example/a?x=1&amp;y=2">a</a>',
    '<a href="myshop://catalog/7">app</a>',
    '<a href="#top">top</a>',
    '<div style="color:red;background:url(https://cdn.example/a.png)">x</div>',
    '<p>Use the code ON=SALE</p>',
  ])('accepts %s', (html) => {
    expect(htmlProblem(html)).toBeUndefined();
  });

  it.each([
    ['<script src="https://x.example/a.js"></script>', 'element'],
    ['< script>alert(1)</script>', 'element'],
    ['<img src=https://a.example/x.png onerror=alert(1)', 'handler'],
    ['<a href=" javascript:alert(1)">x</a>', 'link'],
    ['<a href="java&#9;script:alert(1)">x</a>', 'link'],
    ['<a href="&#106;avascript:alert(1)">x</a>', 'link'],
    ['<a href="vbscript:msgbox(1)">x</a>', 'link'],
    ['<img srcset="https://a.example/1.png 1x, data:image/png;base64,AA 2x">', 'link'],
    ['<style>@import "https://x.example/a.css";</style>', 'style'],
    ['<div style="width:expression(alert(1))">x</div>', 'style'],
    ['<a href="/relative">x</a>', 'link'],
  ])('refuses %s (%s)', (html, kind) => {
    expect(htmlProblem(html)?.kind).toBe(kind);
  });

  it('takes http(s) URLs and deep links with an authority, and nothing with spaces or another scheme', () => {
    expect(['https://a.example', 'http://a.example/x', 'myshop://x', 'fb123://open'].every(isAllowedLink)).toBe(true);
    expect(['https://', 'myshop:x', 'mailto:a@b.example', 'https://a .example', 'data://x', ''].some(isAllowedLink)).toBe(false);
  });
});

describe('candidatesFor', () => {
  const popup = (id: number, fields: Partial<Popup> = {}): Popup => ({
    id,
    name: `p${id}`,
    status: 'active',
    position: 'centered',
    delay: 0,
    streams: [],
    screens: [],
    channels: [],
    html: '<p>x</p>',
    components: {},
    actions: {},
    webPushSystem: false,
    segmentId: null,
    startsAt: null,
    endsAt: null,
    createdAt: 0,
    updatedAt: 0,
    ...fields,
  });

  it('keeps active popups in their schedule for the stream and screen, oldest first', () => {
    const popups = [
      popup(5),
      popup(2, { streams: ['ios'] }),
      popup(3, { screens: ['cart'] }),
      popup(4, { status: 'inactive' }),
      popup(6, { startsAt: 2000 }),
      popup(7, { endsAt: 1000 }),
    ];
    expect(candidatesFor(popups, { stream: 'IOS' }, 1000).map((p) => p.id)).toEqual([2, 5]);
    expect(candidatesFor(popups, { stream: 'android', screen: 'cart' }, 2000).map((p) => p.id)).toEqual([3, 5, 6]);
  });
});
