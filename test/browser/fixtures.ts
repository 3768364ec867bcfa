import { AxeBuilder } from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { createUser } from './admin-api.js';
import { SignInPage } from './pages/sign-in.page.js';

/** `signedIn`: a fresh owner made through the admin API, signed in through the sign-in screen. */
export const test = base.extend<{ signedIn: { email: string } }>({
  signedIn: async ({ page }, use) => {
    const user = await createUser('owner');
    const signIn = new SignInPage(page);
    await signIn.goto();
    await signIn.signIn(user.email, user.password);
    await expect(page.getByRole('heading', { name: 'Shops', level: 1 })).toBeVisible();
    await use({ email: user.email });
  },
});

export { expect };

/**
 * Set by `.ci/run` for its PostgreSQL pass: what axe checks (the markup, contrast, names) is
 * the same whatever database answers, and the SQLite pass has checked every screen.
 */
const AXE_OFF = process.env.PATRON_BROWSER_AXE === 'off';

/** axe on what the page shows now: no serious or critical violation (issue 35, part 4). */
export async function expectAccessible(page: Page): Promise<void> {
  if (AXE_OFF) return;
  // A drawer or modal still fading in has colours between its start and its end, and axe
  // would judge their contrast mid-way: the page's finite animations and transitions end first
  // (a spinner's endless one never would).
  // (In the page's own words: this project's types have no DOM.)
  await page.evaluate(`Promise.all(document.getAnimations()
    .filter((a) => Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity))
    .map((a) => a.finished.catch(() => undefined)))`);
  // A frame with no rights at all (`sandbox=""`: a rendered email) holds the sender's markup, not
  // the app's; and with axe run into one, its last step's new page failed (Target.createTarget) in Chromium.
  // Legacy mode: axe.run in the page, rather than a partial run per frame finished in a new blank
  // page that each check opened and closed (1.7–2.1 s a check on a settings screen with a modal,
  // 0.35–0.4 s in this mode, same violations). What it gives up is only cross-origin frames, and
  // the admin UI has none: its only frames are the sandboxed emails left out above.
  const results = await new AxeBuilder({ page })
    .exclude('iframe[sandbox=""]')
    .options({ resultTypes: ['violations'] })
    .setLegacyMode()
    .analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious).toEqual([]);
}
