import { describe, expect, it } from 'vitest';
import { parseCommand, UsageError } from '../../src/process/cli-args.js';

function usageMessage(argv: string[]): string {
  try {
    parseCommand(argv);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error(`parseCommand accepted ${argv.join(' ')}`);
}

describe('patron command line', () => {
  it('runs workers in the server unless --no-worker is given', () => {
    expect(parseCommand(['serve'])).toEqual({ kind: 'serve', worker: true });
    expect(parseCommand(['serve', '--no-worker'])).toEqual({ kind: 'serve', worker: false });
  });

  it('reads the shop options, leaving out the ones not given', () => {
    expect(parseCommand(['shop', 'create', '--name', 'Acme'])).toEqual({ kind: 'shop-create', name: 'Acme' });
    expect(parseCommand(['shop', 'create', '--name=Acme', '--currency', 'EUR', '--timezone', 'Europe/Berlin'])).toEqual({
      kind: 'shop-create',
      name: 'Acme',
      currency: 'EUR',
      timezone: 'Europe/Berlin',
    });
  });

  it('knows the one-word and two-word commands', () => {
    expect(parseCommand(['worker'])).toEqual({ kind: 'worker' });
    expect(parseCommand(['migrate'])).toEqual({ kind: 'migrate' });
    expect(parseCommand(['demo'])).toEqual({ kind: 'demo' });
    expect(parseCommand(['admin-token', 'rotate'])).toEqual({ kind: 'admin-token-rotate' });
  });

  it('answers --help anywhere and --version alone', () => {
    expect(parseCommand(['--help'])).toEqual({ kind: 'help' });
    expect(parseCommand(['shop', 'create', '-h'])).toEqual({ kind: 'help' });
    expect(parseCommand(['--version'])).toEqual({ kind: 'version' });
  });

  it('refuses bad usage with a message that says what is wrong', () => {
    expect(usageMessage([])).toBe('No command given.');
    expect(usageMessage(['srve'])).toBe('Unknown command "srve".');
    expect(usageMessage(['shop'])).toBe('patron shop needs a subcommand: create.');
    expect(usageMessage(['shop', 'create'])).toBe('patron shop create needs --name <name>.');
    expect(usageMessage(['shop', 'create', '--name'])).toMatch(/^patron shop create: Option '--name <value>' argument missing/);
    expect(usageMessage(['serve', '--port', '80'])).toMatch(/^patron serve: Unknown option '--port'/);
    expect(usageMessage(['migrate', 'now'])).toBe('patron migrate: unexpected argument "now".');
    expect(usageMessage(['admin-token', 'rotate', '--force'])).toMatch(/Unknown option '--force'/);
  });
});
