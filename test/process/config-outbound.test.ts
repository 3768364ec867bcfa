import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env, '/srv/patron');
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('loadConfig accepted the environment');
}

describe('configuration of outbound fetches and public links', () => {
  it('refuses private addresses by default and accepts true, false or a list of ranges', () => {
    expect(loadConfig({}).fetchAllowPrivate).toBe(false);
    expect(loadConfig({ PATRON_FETCH_ALLOW_PRIVATE: 'true' }).fetchAllowPrivate).toBe(true);
    expect(loadConfig({ PATRON_FETCH_ALLOW_PRIVATE: '0' }).fetchAllowPrivate).toBe(false);
    expect(loadConfig({ PATRON_FETCH_ALLOW_PRIVATE: '10.1.2.3, fd00::/8' }).fetchAllowPrivate).toEqual(['10.1.2.3', 'fd00::/8']);
  });

  it('names PATRON_FETCH_ALLOW_PRIVATE when a range is malformed', () => {
    const problems = problemsOf({ PATRON_FETCH_ALLOW_PRIVATE: '10.0.0.0/33,intranet' });
    expect(problems).toEqual([
      'PATRON_FETCH_ALLOW_PRIVATE must be true, false or a comma-separated list of addresses and CIDR ranges, got "10.0.0.0/33,intranet"',
    ]);
  });

  it('defaults the public URL to the loopback address and port, and drops a trailing slash', () => {
    expect(loadConfig({ PORT: '9090' }).publicUrl).toBe('http://127.0.0.1:9090');
    expect(loadConfig({ PATRON_PUBLIC_URL: 'https://patron.example.com/' }).publicUrl).toBe('https://patron.example.com');
    expect(loadConfig({ PATRON_PUBLIC_URL: 'https://example.com/patron/' }).publicUrl).toBe('https://example.com/patron');
  });

  it.each([['ftp://patron.example'], ['https://patron.example/?a=1'], ['https://u:p@patron.example'], ['patron.example']])(
    'refuses the public URL %s',
    (value) => {
      expect(problemsOf({ PATRON_PUBLIC_URL: value })[0]).toMatch(/^PATRON_PUBLIC_URL /);
    },
  );
});
