import { defineConfig } from '@playwright/test';

/**
 * Browser tests of the admin UI (docs/admin-ui.md): a real built Patron, started by the
 * global setup on a fresh database, driven through Debian's Chromium. Playwright's own
 * browser download is never used (it fails in CI's network): `.ci/run` installs `chromium`.
 * One worker and no retries: the suite is short, and a retry would hide a flaky test.
 */
export default defineConfig({
  testDir: 'test/browser',
  testMatch: '**/*.spec.ts',
  globalSetup: './test/browser/global-setup.ts',
  workers: 1,
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
    trace: 'retain-on-failure',
  },
});
