import { describe, expect, it } from 'vitest';
import { bodyOf, draftOf, placeOf } from './story-draft';
import type { StorySet } from './stories.queries';

const SET: StorySet = {
  id: 1,
  code: 'home',
  name: 'Home',
  settings: { close_color: '#ffffff' },
  stories: [
    {
      id: 7,
      name: 'Sale',
      avatar: 'https://img.example/a.jpg',
      pinned: true,
      slides: [
        {
          id: 21,
          type: 'video',
          background: 'https://img.example/v.mp4',
          background_color: null,
          preview: null,
          duration: 8,
          elements: [{ type: 'button', title: 'Go', link: 'https://shop.example', deeplink_ios: '' }],
        },
      ],
    },
  ],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

describe('story drafts', () => {
  it('pass every id back and leave empty optional texts out, so that an edit keeps views and is not refused', () => {
    expect(bodyOf(' Home ', SET.settings, draftOf(SET))).toEqual({
      name: 'Home',
      settings: { close_color: '#ffffff' },
      stories: [
        {
          id: 7,
          name: 'Sale',
          avatar: 'https://img.example/a.jpg',
          pinned: true,
          slides: [
            {
              id: 21,
              type: 'video',
              background: 'https://img.example/v.mp4',
              preview: null,
              duration: 8,
              elements: [{ type: 'button', title: 'Go', link: 'https://shop.example' }],
            },
          ],
        },
      ],
    });
  });

  it('find the story, slide, element and field a refusal names', () => {
    expect(placeOf('stories[1].slides[0].elements[2].link')).toEqual({ story: 1, slide: 0, element: 2, field: 'link' });
    expect(placeOf('stories[0].avatar')).toEqual({ story: 0, slide: undefined, element: undefined, field: 'avatar' });
    expect(placeOf('stories[0].slides[3].elements[1]')).toEqual({ story: 0, slide: 3, element: 1, field: '' });
    expect(placeOf('name')).toEqual({ field: 'name' });
    expect(placeOf(undefined)).toBeUndefined();
  });
});
