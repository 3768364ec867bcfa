import { describe, expect, it } from 'vitest';
import { JsonFeedParser } from '../../../src/modules/catalog/domain/feed-json-parser.js';
import { FeedFormatError, type FeedItem } from '../../../src/modules/catalog/domain/feed-types.js';
import { YmlFeedParser } from '../../../src/modules/catalog/domain/feed-yml-parser.js';
import { buildJsonFeed, buildYml, sampleFeed } from '../../helpers/feed-builder.js';

function parse(
  text: string,
  chunk = 5,
  parser: { write(s: string): void; end(): void; drain(): FeedItem[] } = new JsonFeedParser(),
): FeedItem[] {
  const items: FeedItem[] = [];
  for (let i = 0; i < text.length; i += chunk) {
    parser.write(text.slice(i, i + chunk));
    items.push(...parser.drain());
  }
  parser.end();
  items.push(...parser.drain());
  return items;
}

function failure(text: string): string {
  try {
    parse(text);
  } catch (error) {
    expect(error).toBeInstanceOf(FeedFormatError);
    return (error as Error).message;
  }
  throw new Error('the document was accepted');
}

describe('JSON feed parser', () => {
  it('reads the same categories, locations and offers as the YML of the same feed', () => {
    const spec = sampleFeed();
    const fromJson = parse(JSON.stringify(buildJsonFeed(spec), null, 2));
    const fromYml = parse(buildYml(spec), 64, new YmlFeedParser());
    // YML text is all strings; the JSON feed keeps numbers and booleans, so compare as strings.
    const asText = (_key: string, v: unknown) => (typeof v === 'number' || typeof v === 'boolean' ? String(v) : v);
    expect(JSON.parse(JSON.stringify(fromJson, asText))).toEqual(JSON.parse(JSON.stringify(fromYml)));
  });

  it('accepts category_id and picture as single values, numeric ids, and params as {key, values}', () => {
    const [item] = parse(
      JSON.stringify({
        offers: [{ id: 17, category_id: 3, picture: 'https://img/x.jpg', price: 10.5, params: [{ key: 'Size', values: [42, '43'] }] }],
      }),
    );
    expect(item?.kind === 'offer' && item.offer).toMatchObject({
      id: '17',
      categoryIds: ['3'],
      pictures: ['https://img/x.jpg'],
      price: 10.5,
      params: [
        { name: 'Size', value: 42, unit: undefined },
        { name: 'Size', value: '43', unit: undefined },
      ],
    });
  });

  it('handles strings with brackets, quotes and escapes split across chunks', () => {
    const text = JSON.stringify({ shop: 'a [b] {c}', offers: [{ id: 'q"1', name: 'x ] } \\ "y"' }] });
    const items = parse(text, 1);
    expect(items).toHaveLength(1);
    expect(items[0]?.kind === 'offer' && items[0].offer.name).toBe('x ] } \\ "y"');
  });

  it('passes an offer that is not an object on as one without an id', () => {
    expect(() => parse('{"offers":[{"id":"a"}, 5]}')).toThrow(/"offers" of the JSON feed must be an array of objects/);
    const [item] = parse('{"offers":[[1,2]]}');
    expect(item?.kind === 'offer' && item.offer.id).toBeUndefined();
  });

  it('notes categories and locations without an id', () => {
    expect(parse('{"categories":[{"name":"x"}],"locations":[{}],"offers":[]}')).toEqual([
      { kind: 'note', id: '', reason: 'category 1 has no usable id; ignored' },
      { kind: 'note', id: '', reason: 'location 1 has no usable id; ignored' },
    ]);
  });

  it('keeps unknown top-level keys of any shape', () => {
    expect(parse('{"version": 2, "currencies": ["RUB", {"id": "USD"}], "offers": []}')).toEqual([]);
  });

  it.each([
    ['plain text', 'not json at all', /not valid JSON/],
    ['XML', '<yml_catalog/>', /not valid JSON/],
    ['an empty body', '', /not valid JSON/],
    ['truncated JSON', '{"offers":[{"id":"1","name":"cut', /ends too early/],
    ['a broken element', '{"offers":[{"id":"1",}]}', /not valid JSON: offers element 1/],
    ['an array at the top', '[{"id":"1"}]', /must be an object/],
    ['no offers', '{"categories":[]}', /no "offers" array/],
    ['offers not an array', '{"offers":{"id":"1"}}', /no "offers" array/],
    ['a missing comma', '{"offers":[{"id":"1"} {"id":"2"}]}', /comma is missing/],
    ['a trailing comma', '{"offers":[{"id":"1"},]}', /comma before "]"|comma out of place/],
    ['mismatched brackets', '{"offers":[{"id":"1"]]}', /bracket does not match/],
    ['trailing garbage', '{"offers":[]} x', /not valid JSON/],
  ])('refuses %s with a sentence', (_label, text, pattern) => {
    const message = failure(text);
    expect(message).toMatch(pattern);
    expect(message).toMatch(/\.$/);
  });

  it('refuses an element larger than 1 MiB', () => {
    const huge = JSON.stringify({ offers: [{ id: '1', description: 'd'.repeat(1_100_000) }] });
    expect(() => parse(huge, 65_536)).toThrow(/longer than 1048576 characters/);
  });
});
