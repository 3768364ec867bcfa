import { describe, expect, it } from 'vitest';
import { bodyOf, draftOf, emptySlide, moved, placeOf, tagsOf } from './slider-drafts';

const slide = {
  image_url: 'https://cdn.example/a.png',
  url: 'https://shop.example/sale',
  deeplink_ios: null,
  deeplink_android: 'myshop://sale',
  content_type: null,
  content: 'Winter sale',
  tags: ['men', 'sale'],
  html: '<a …>',
};

describe('slider drafts', () => {
  it('turns a stored slider into the form and back into the same body', () => {
    const draft = draftOf({ width: 1200, height: 400, slides: [slide] });
    expect(draft).toEqual({
      width: '1200',
      height: '400',
      slides: [
        {
          image_url: 'https://cdn.example/a.png',
          url: 'https://shop.example/sale',
          deeplink_ios: '',
          deeplink_android: 'myshop://sale',
          content_type: '',
          content: 'Winter sale',
          tags: 'men, sale',
        },
      ],
    });
    expect(bodyOf(draft)).toEqual({
      body: {
        width: 1200,
        height: 400,
        slides: [
          {
            image_url: 'https://cdn.example/a.png',
            url: 'https://shop.example/sale',
            deeplink_ios: null,
            deeplink_android: 'myshop://sale',
            content_type: null,
            content: 'Winter sale',
            tags: ['men', 'sale'],
          },
        ],
      },
    });
  });

  it('sends empty optional fields as none and trims the links', () => {
    const result = bodyOf({
      width: ' 10 ',
      height: '20',
      slides: [{ ...emptySlide(), image_url: ' https://a.example/x ', url: 'https://b.example/' }],
    });
    expect(result).toEqual({
      body: {
        width: 10,
        height: 20,
        slides: [
          {
            image_url: 'https://a.example/x',
            url: 'https://b.example/',
            deeplink_ios: null,
            deeplink_android: null,
            content_type: null,
            content: null,
            tags: [],
          },
        ],
      },
    });
  });

  it.each([['0'], ['10001'], ['12.5'], ['-3'], [''], ['1e3'], ['abc']])('refuses the size %j at its field', (width) => {
    expect(bodyOf({ width, height: '10', slides: [] })).toEqual({ problem: { field: 'width', key: 'catalog.slider.sizeInvalid' } });
    expect(bodyOf({ width: '10', height: width, slides: [] })).toEqual({ problem: { field: 'height', key: 'catalog.slider.sizeInvalid' } });
  });

  it('reads tags from one line, dropping empty ones', () => {
    expect(tagsOf(' men ,, sale ,')).toEqual(['men', 'sale']);
    expect(tagsOf('   ')).toEqual([]);
  });

  it('moves a slide up or down, and leaves the ends alone', () => {
    expect(moved(['a', 'b', 'c'], 1, -1)).toEqual(['b', 'a', 'c']);
    expect(moved(['a', 'b', 'c'], 1, 1)).toEqual(['a', 'c', 'b']);
    const items = ['a', 'b'];
    expect(moved(items, 0, -1)).toBe(items);
    expect(moved(items, 1, 1)).toBe(items);
    expect(moved(items, 5, 1)).toBe(items);
  });

  it("places the server's 422 field at the slide's input", () => {
    expect(placeOf('slides[2].url')).toEqual({ at: 'slide', index: 2, field: 'url' });
    expect(placeOf('slides[0].tags[3]')).toEqual({ at: 'slide', index: 0, field: 'tags' });
    expect(placeOf('slides[1].html')).toEqual({ at: 'slides' });
    expect(placeOf('width')).toEqual({ at: 'width' });
    expect(placeOf('slides')).toEqual({ at: 'slides' });
    expect(placeOf('code')).toBeUndefined();
    expect(placeOf(undefined)).toBeUndefined();
  });
});
