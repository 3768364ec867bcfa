import { defineConfig } from '@playwright/test';

/**
 * Browser tests of the admin UI (docs/admin-ui.md): a real built Patron, started by the
 * global setup on a fresh database, driven through Debian's Chromium. Playwright's own
 * browser download is never used (it fails in CI's network): `.ci/run` installs `chromium`.
 * Two workers share the one server (each test seeds its own shop and user; the chain test's
 * clock moves the server on by minutes, which no other test reads): the SQLite pass took
 * 287 s against 412 s with one. No retries: a retry would hide a flaky test. No trace by
 * default: recording one for every test took 40 % of the run (287 s against 170 s); a
 * failure still leaves its screenshot and the page's accessibility snapshot, and
 * `--trace retain-on-failure` records traces when a failure needs one.
 */
export default defineConfig({
  testDir: 'test/browser',
  testMatch: '**/*.spec.ts',
  globalSetup: './test/browser/global-setup.ts',
  workers: 2,
  retries: 0,
  fullyParallel: false,
  forbidOnly: true,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.PATRON_CHROMIUM ?? '/usr/bin/chromium',
      // CI runs as root in a container, where Chromium's sandbox cannot start.
      args: ['--no-sandbox'],
    },
    locale: 'en-US',
    // The theme honours the system's reduced-motion wish: no slide or fade to wait out.
    reducedMotion: 'reduce',
    trace: 'off',
    screenshot: process.env.PATRON_BROWSER_SCREENSHOTS === 'on' ? 'on' : 'only-on-failure',
  },
});
