import { describe, expect, it } from 'vitest';
import { escapeHtml, renderSlideHtml } from '../../../src/modules/sliders/domain/slide-html.js';
import type { Slide } from '../../../src/modules/sliders/domain/slider.js';

const SIZE = { width: 800, height: 300 };

function slide(overrides: Partial<Slide> = {}): Slide {
  return {
    imageUrl: 'https://cdn.example.org/b1.jpg',
    url: 'https://shop.example.org/sale',
    deeplinkIos: null,
    deeplinkAndroid: null,
    contentType: null,
    content: null,
    tags: [],
    ...overrides,
  };
}

/**
 * The only shape the markup may have. Attribute values are matched as "anything but a
 * quote or an angle bracket", so a value that escaped its attribute cannot match.
 */
const MARKUP =
  /^<a href="(?<href>[^"<>]*)"><img src="(?<src>[^"<>]*)" width="(?<width>\d+)" height="(?<height>\d+)" alt="(?<alt>[^"<>]*)"><\/a>$/u;

/** Reverses escapeHtml; a raw `&` left in a value would decode wrongly and fail the round trip. */
function unescape(value: string): string {
  return value.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_whole, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name] ?? '',
  );
}

function parts(html: string): Record<string, string> {
  const match = MARKUP.exec(html);
  expect(match, html).not.toBeNull();
  return { ...match!.groups };
}

describe('escapeHtml', () => {
  it.each([
    ['plain text', 'plain text'],
    ['a & b', 'a &amp; b'],
    ['<script>alert(1)</script>', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    ['" onerror="alert(1)', '&quot; onerror=&quot;alert(1)'],
    ["' onload='x", '&#39; onload=&#39;x'],
    ['&amp; already escaped', '&amp;amp; already escaped'],
    ['Скидки до 50% — только сегодня 🎉', 'Скидки до 50% — только сегодня 🎉'],
    ['\u202Eevil\u202C', '\u202Eevil\u202C'],
  ])('escapes %j as %j', (raw, escaped) => {
    expect(escapeHtml(raw)).toBe(escaped);
  });
});

describe('renderSlideHtml', () => {
  it('renders a link around a picture of the slider size, with the content as alt text', () => {
    expect(renderSlideHtml(slide({ content: 'Spring sale' }), SIZE)).toBe(
      '<a href="https://shop.example.org/sale"><img src="https://cdn.example.org/b1.jpg" width="800" height="300" alt="Spring sale"></a>',
    );
  });

  it('gives the picture an empty alt text when the slide has no content', () => {
    expect(parts(renderSlideHtml(slide(), SIZE)).alt).toBe('');
  });

  const HOSTILE = [
    '"><script>alert(document.cookie)</script>',
    "' onerror='alert(1)",
    '" onmouseover="alert(1)" x="',
    '</a><iframe src="javascript:alert(1)"></iframe>',
    '<img src=x onerror=alert(1)//',
    '&quot;&#39;&lt;',
    'Привет, мир 👋 ‮ "quoted" <b>',
    '\u0000\u2028\u2029',
  ];

  it.each(HOSTILE)('keeps content %j inside the alt attribute, unchanged after unescaping', (content) => {
    const html = renderSlideHtml(slide({ content }), SIZE);
    const { alt } = parts(html);
    expect(unescape(alt!)).toBe(content);
    // Exactly the three tags of the markup: <a …>, <img …> and </a>.
    expect(html.match(/[<>]/g)).toHaveLength(6);
  });

  it.each([
    'https://shop.example.org/search?q="><script>alert(1)</script>',
    "https://shop.example.org/a?x='onclick='alert(1)",
    'https://shop.example.org/sale?utm=1&amp=2&lt=3',
    'https://магазин.рф/акция?скидка=50%',
  ])('escapes the link %j in href and src and keeps it intact', (link) => {
    const { href, src } = parts(renderSlideHtml(slide({ url: link, imageUrl: link }), SIZE));
    expect(unescape(href!)).toBe(link);
    expect(unescape(src!)).toBe(link);
  });

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'java\tscript:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    '//evil.example.org/x',
    'https://',
  ])('never puts the link %j in href: the picture is shown without a link', (url) => {
    const html = renderSlideHtml(slide({ url }), SIZE);
    expect(html).toBe('<img src="https://cdn.example.org/b1.jpg" width="800" height="300" alt="">');
  });

  it.each(['javascript:alert(1)', 'data:image/svg+xml,<svg onload=alert(1)>', 'file:///etc/passwd'])(
    'renders nothing for a picture link %j',
    (imageUrl) => {
      expect(renderSlideHtml(slide({ imageUrl }), SIZE)).toBe('');
    },
  );

  it('writes sizes as digits only, whatever it is given', () => {
    const { width, height } = parts(renderSlideHtml(slide(), { width: 1.5, height: Number.NaN }));
    expect([width, height]).toEqual(['0', '0']);
  });

  it('never puts tags, deeplinks or the content type into the markup', () => {
    const html = renderSlideHtml(
      slide({ tags: ['<b>tag</b>'], deeplinkIos: 'myshop://x', deeplinkAndroid: 'intent://y', contentType: 'promo' }),
      SIZE,
    );
    expect(html).not.toMatch(/tag|myshop|intent|promo/);
  });
});
