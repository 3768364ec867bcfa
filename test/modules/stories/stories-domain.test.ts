import { describe, expect, it } from 'vitest';
import { keptIds } from '../../../src/modules/stories/domain/ids.js';
import { isMediaUrl, isStoryLink } from '../../../src/modules/stories/domain/links.js';

describe('story links', () => {
  it.each(['https://shop.example/a?b=1', 'http://shop.example', 'myapp://product/7', 'fb123://open'])('allows %s', (link) => {
    expect(isStoryLink(link)).toBe(true);
  });
  it.each([
    'javascript:alert(1)',
    'JAVASCRIPT://%0aalert(1)',
    'data:text/html,x',
    'vbscript:msgbox',
    'file:///etc/passwd',
    'myapp:/no-slashes',
    'https://shop.example/a b',
    '//shop.example',
    `https://shop.example/${'a'.repeat(2050)}`,
  ])('refuses %s', (link) => {
    expect(isStoryLink(link)).toBe(false);
  });
  it('takes only http(s) for pictures and videos', () => {
    expect(isMediaUrl('https://img.example/a.mp4')).toBe(true);
    expect(isMediaUrl('myapp://a.png')).toBe(false);
    expect(isMediaUrl('data:image/png;base64,AA')).toBe(false);
  });
});

describe('keptIds', () => {
  it('keeps passed ids, then ids at their place, and leaves the rest new', () => {
    expect(keptIds([1, 2, 3], [undefined, undefined, undefined])).toEqual([1, 2, 3]);
    expect(keptIds([1, 2, 3], [3, undefined, 1, undefined])).toEqual([3, 2, 1, undefined]);
    // An id that was not stored, or passed twice, is new; the place's id is not taken from one who passed it.
    expect(keptIds([1, 2], [9, 1, 1])).toEqual([undefined, 1, undefined]);
    expect(keptIds([], [undefined])).toEqual([undefined]);
  });
});
