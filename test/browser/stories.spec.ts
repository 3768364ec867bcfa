import { BASE_URL, call, createShop } from './admin-api.js';
import { putFeed, ymlFeed } from './catalog-seed.js';
import { expect, expectAccessible, test } from './fixtures.js';
import { StoriesPage } from './pages/stories.page.js';

interface StoriesAnswer {
  readonly settings: Readonly<Record<string, unknown>>;
  readonly stories: readonly {
    readonly id: number;
    readonly slides: readonly {
      readonly id: number;
      readonly background: string;
      readonly elements: readonly { readonly products?: readonly { readonly id: string }[] }[];
    }[];
  }[];
}

test('a story set made in the UI refuses a javascript: link at its field, then GET /stories answers it to the app', {
  tag: '@both-databases',
}, async ({ page, signedIn: _ }) => {
  test.setTimeout(60_000);
  const shop = await createShop(`Stories ${Date.now()}`);
  await putFeed(
    shop.shop_id,
    ymlFeed(
      [['1', 'Shoes']],
      [
        { id: '101', name: 'Runner', price: '1990', category: '1' },
        { id: '102', name: 'Gone', price: '990', category: '1', available: false },
      ],
    ),
  );
  const stories = new StoriesPage(page);
  await stories.gotoSets(shop.shop_id);
  await expect(page.getByText('No story sets yet.')).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('link', { name: 'New story set' }).click();
  await page.getByLabel('Code').fill('home');
  await page.getByLabel('Name', { exact: true }).fill('Home');
  await page.getByLabel('Close button').fill('#ff0000');
  await page.getByLabel('Story name').fill('Sale');
  await page.getByLabel('Avatar picture link').fill(`${BASE_URL}/img/avatar.jpg`);
  await page.getByRole('textbox', { name: 'Picture link', exact: true }).fill(`${BASE_URL}/img/slide.jpg`);
  await stories.addElement('Button');
  await stories.element(1).getByLabel('Title').fill('Buy now');
  await stories.element(1).getByLabel('Link', { exact: true }).fill('javascript:alert(1)');
  await stories.addElement('Products');
  await stories.element(2).getByLabel('Product ids').fill('101, 102');
  await expect(stories.preview()).toContainText('Buy now');
  await expect(stories.preview()).toContainText('Product 101');
  await page.getByRole('button', { name: 'Create story set' }).click();
  await expect(stories.element(1).getByText(/must be an http\(s\) link or an app deep link/)).toBeVisible();
  await expectAccessible(page);

  await stories.element(1).getByLabel('Link', { exact: true }).fill('https://shop.example/sale');
  await page.getByRole('button', { name: 'Create story set' }).click();
  await expect(page.getByRole('heading', { name: 'Home (home)', level: 1 })).toBeVisible();

  // The app asks for the set: the story as made, the unavailable product left out.
  const device = await call<{ did: string; sid: string }>('GET', `/init?shop_id=${shop.shop_id}`);
  const answer = (await (await fetch(`${BASE_URL}/stories/home?shop_id=${shop.shop_id}&did=${device.did}`)).json()) as StoriesAnswer;
  expect(answer.settings).toMatchObject({ close_color: '#ff0000', border_viewed: '#fdc2a1' });
  expect(answer.stories).toHaveLength(1);
  const story = answer.stories[0]!;
  expect(story).toMatchObject({ name: 'Sale', viewed: false, start_position: 0, pinned: false });
  const slide = story.slides[0]!;
  expect(slide.background).toBe(`${BASE_URL}/img/slide.jpg`);
  expect(slide.elements[0]).toMatchObject({ type: 'button', title: 'Buy now', link: 'https://shop.example/sale' });
  expect(slide.elements[1]?.products?.map((p) => p.id)).toEqual(['101']);

  // The app reports a view: the figures count the device.
  const tracked = await fetch(`${BASE_URL}/track/stories`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ shop_id: shop.shop_id, did: device.did, event: 'view', code: 'home', story_id: story.id, slide_id: slide.id }),
  });
  expect(await tracked.json()).toEqual({ status: 'success' });
  await stories.gotoSet(shop.shop_id, 'home');
  await expect(stories.figuresRow('Sale')).toContainText(/1\s*0$/);
  await expect(page.getByText('1 viewed').first()).toBeVisible();
  await expectAccessible(page);
});
