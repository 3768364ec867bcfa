import { describe, expect, it } from 'vitest';
import {
  checkSlider,
  isAcceptableDeeplink,
  isHttpUrl,
  isValidSliderCode,
  isValidTag,
  MAX_SLIDES,
  MAX_TAGS_PER_SLIDE,
  selectSlides,
  type Slide,
} from '../../../src/modules/sliders/domain/slider.js';

function slide(overrides: Partial<Slide> = {}): Slide {
  return {
    imageUrl: 'https://cdn.example.org/b.jpg',
    url: 'https://shop.example.org/',
    deeplinkIos: null,
    deeplinkAndroid: null,
    contentType: null,
    content: null,
    tags: [],
    ...overrides,
  };
}

describe('slider codes', () => {
  it.each(['main', 'Main_Banner-2', 'a', 'x'.repeat(64), '0123abcdef'])('accepts %j', (code) => {
    expect(isValidSliderCode(code)).toBe(true);
  });
  it.each(['', 'x'.repeat(65), 'main banner', 'main/banner', 'баннер', 'a.b', 'a,b'])('refuses %j', (code) => {
    expect(isValidSliderCode(code)).toBe(false);
  });
});

describe('links', () => {
  it.each(['https://shop.example.org/', 'http://shop.example.org/a?b=c#d', 'HTTPS://SHOP.EXAMPLE.ORG', 'https://магазин.рф/'])(
    'takes %j as an http(s) URL',
    (url) => {
      expect(isHttpUrl(url)).toBe(true);
    },
  );
  it.each([
    'javascript:alert(1)',
    'data:text/html,x',
    'ftp://shop.example.org/',
    '//shop.example.org/',
    '/sale',
    'https://',
    'https:///path',
    'https://\\evil.example.org/',
    'https://shop.example.org/a b',
    'https://shop.example.org/\u0000',
    ' https://shop.example.org/',
    `https://shop.example.org/${'a'.repeat(2048)}`,
  ])('refuses %j as an http(s) URL', (url) => {
    expect(isHttpUrl(url)).toBe(false);
  });

  it.each(['myshop://product/1', 'intent://scan/#Intent;scheme=zxing;end', 'https://shop.example.org/app', 'fb123://x'])(
    'takes %j as an app link',
    (link) => {
      expect(isAcceptableDeeplink(link)).toBe(true);
    },
  );
  it.each([
    'javascript://%0aalert(1)',
    'JavaScript://x',
    'data://text/html,x',
    'vbscript://x',
    'file:///etc/passwd',
    'about://blank',
    'myshop:product',
    'product/1',
    'myshop://a b',
  ])('refuses %j as an app link', (link) => {
    expect(isAcceptableDeeplink(link)).toBe(false);
  });
});

describe('tags', () => {
  it.each(['men', 'Sale 2026', 'скидки', 'x'.repeat(64)])('accepts %j', (tag) => {
    expect(isValidTag(tag)).toBe(true);
  });
  it.each(['', 'a,b', ' men', 'men ', 'a\tb', 'x'.repeat(65)])('refuses %j', (tag) => {
    expect(isValidTag(tag)).toBe(false);
  });
});

describe('checkSlider', () => {
  const valid = { width: 800, height: 300, slides: [slide()] };

  it('accepts a valid slider, and one without slides', () => {
    expect(checkSlider('main', valid)).toEqual({ ok: true });
    expect(checkSlider('main', { ...valid, slides: [] })).toEqual({ ok: true });
  });

  it.each([
    ['bad code', 'a b', valid, 'code'],
    ['zero width', 'main', { ...valid, width: 0 }, 'width'],
    ['fractional height', 'main', { ...valid, height: 2.5 }, 'height'],
    ['too many slides', 'main', { ...valid, slides: Array.from({ length: MAX_SLIDES + 1 }, () => slide()) }, 'slides'],
    ['a javascript: link', 'main', { ...valid, slides: [slide(), slide({ url: 'javascript:alert(1)' })] }, 'slides[1].url'],
    ['a data: picture', 'main', { ...valid, slides: [slide({ imageUrl: 'data:image/png;base64,AAAA' })] }, 'slides[0].image_url'],
    ['a javascript deeplink', 'main', { ...valid, slides: [slide({ deeplinkAndroid: 'javascript://x' })] }, 'slides[0].deeplink_android'],
    [
      'too many tags',
      'main',
      { ...valid, slides: [slide({ tags: Array.from({ length: MAX_TAGS_PER_SLIDE + 1 }, (_, i) => `t${i}`) })] },
      'slides[0].tags',
    ],
    ['a tag with a comma', 'main', { ...valid, slides: [slide({ tags: ['ok', 'a,b'] })] }, 'slides[0].tags[1]'],
    ['long content', 'main', { ...valid, slides: [slide({ content: 'x'.repeat(2001) })] }, 'slides[0].content'],
  ])('refuses %s naming `%s`', (_name, code, definition, field) => {
    const result = checkSlider(code, definition);
    expect(result).toMatchObject({ ok: false, field });
  });
});

describe('selectSlides', () => {
  const men = slide({ url: 'https://s.example.org/men', tags: ['men', 'sale'] });
  const women = slide({ url: 'https://s.example.org/women', tags: ['women'] });
  const untagged = slide({ url: 'https://s.example.org/all' });
  const slides = [men, untagged, women];

  it('gives every slide, in order, without tags', () => {
    expect(selectSlides(slides, undefined)).toEqual(slides);
    expect(selectSlides(slides, [])).toEqual(slides);
  });

  it('gives the slides having at least one of the tags, in the slider order, and no untagged slide', () => {
    expect(selectSlides(slides, ['women', 'sale'])).toEqual([men, women]);
    expect(selectSlides(slides, ['men'])).toEqual([men]);
  });

  it('matches tags exactly', () => {
    expect(selectSlides(slides, ['Men', 'sal'])).toEqual([]);
  });
});
