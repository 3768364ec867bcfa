import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ADMIN_ROLES, type AdminRole } from '../modules/admin-users/index.js';

/** What the command line asked for. */
export type Command =
  | { readonly kind: 'serve'; readonly worker: boolean }
  | { readonly kind: 'worker' }
  | { readonly kind: 'migrate' }
  | { readonly kind: 'shop-create'; readonly name: string; readonly currency?: string; readonly timezone?: string }
  | { readonly kind: 'demo' }
  | { readonly kind: 'admin-token-rotate' }
  | { readonly kind: 'secret-key-adopt' }
  | { readonly kind: 'user-create'; readonly email: string; readonly role: AdminRole; readonly shops: readonly string[] | null }
  | { readonly kind: 'user-reset-password'; readonly email: string }
  | { readonly kind: 'import-feed'; readonly source: string; readonly shopId: string; readonly format?: 'yml' | 'json' }
  | {
      readonly kind: 'import-audience';
      readonly file: string;
      readonly shopId: string;
      readonly segmentId?: number;
      readonly format?: 'csv' | 'jsonl';
    }
  | { readonly kind: 'recommendations-evaluate'; readonly shopId: string; readonly testDays: number }
  | { readonly kind: 'backup'; readonly destination: string; readonly force: boolean }
  | { readonly kind: 'help' }
  | { readonly kind: 'version' };

/** Bad usage: the CLI prints the message and exits with 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

type Options = NonNullable<ParseArgsConfig['options']>;
type Values = Record<string, string | boolean | undefined>;

interface CommandSpec {
  readonly words: readonly string[];
  readonly options: Options;
  /** How many positional arguments the command takes (none unless given). */
  readonly positionals?: number;
  build(values: Values, positionals: readonly string[]): Command;
}

const COMMANDS: readonly CommandSpec[] = [
  {
    words: ['serve'],
    options: { 'no-worker': { type: 'boolean' } },
    build: (v) => ({ kind: 'serve', worker: v['no-worker'] !== true }),
  },
  { words: ['worker'], options: {}, build: () => ({ kind: 'worker' }) },
  { words: ['migrate'], options: {}, build: () => ({ kind: 'migrate' }) },
  {
    words: ['shop', 'create'],
    options: { name: { type: 'string' }, currency: { type: 'string' }, timezone: { type: 'string' } },
    build: (v) => {
      const name = stringValue(v.name);
      if (name === undefined || name.trim() === '') throw new UsageError('patron shop create needs --name <name>.');
      const currency = stringValue(v.currency);
      const timezone = stringValue(v.timezone);
      return {
        kind: 'shop-create',
        name,
        ...(currency === undefined ? {} : { currency }),
        ...(timezone === undefined ? {} : { timezone }),
      };
    },
  },
  { words: ['demo'], options: {}, build: () => ({ kind: 'demo' }) },
  { words: ['admin-token', 'rotate'], options: {}, build: () => ({ kind: 'admin-token-rotate' }) },
  { words: ['secret-key', 'adopt'], options: {}, build: () => ({ kind: 'secret-key-adopt' }) },
  {
    words: ['user', 'create'],
    options: { email: { type: 'string' }, role: { type: 'string' }, shops: { type: 'string' } },
    build: (v) => {
      const email = requiredEmail(v.email, 'user create');
      const role = stringValue(v.role);
      if (role === undefined || !(ADMIN_ROLES as readonly string[]).includes(role)) {
        throw new UsageError(`patron user create needs --role ${ADMIN_ROLES.join('|')}.`);
      }
      const shopsText = stringValue(v.shops);
      const shops = shopsText === undefined ? null : shopsText.split(',').map((id) => id.trim());
      if (shops !== null && shops.some((id) => !/^[0-9a-f]{30}$/.test(id))) {
        throw new UsageError('patron user create: --shops must be shop ids separated by commas.');
      }
      return { kind: 'user-create', email, role: role as AdminRole, shops };
    },
  },
  {
    words: ['user', 'reset-password'],
    options: { email: { type: 'string' } },
    build: (v) => ({ kind: 'user-reset-password', email: requiredEmail(v.email, 'user reset-password') }),
  },
  {
    words: ['import', 'feed'],
    options: { shop: { type: 'string' }, format: { type: 'string' } },
    positionals: 1,
    build: (v, positionals) => {
      const source = positionals[0];
      if (source === undefined || source.trim() === '') throw new UsageError('patron import feed needs a FILE or URL.');
      const shopId = stringValue(v.shop);
      if (shopId === undefined || shopId.trim() === '') throw new UsageError('patron import feed needs --shop <shop_id>.');
      const format = stringValue(v.format);
      if (format !== undefined && format !== 'yml' && format !== 'json') {
        throw new UsageError('patron import feed: --format must be yml or json.');
      }
      return { kind: 'import-feed', source, shopId: shopId.trim(), ...(format === undefined ? {} : { format }) };
    },
  },
  {
    words: ['import', 'audience'],
    options: { shop: { type: 'string' }, segment: { type: 'string' }, format: { type: 'string' } },
    positionals: 1,
    build: (v, positionals) => {
      const file = positionals[0];
      if (file === undefined || file.trim() === '') throw new UsageError('patron import audience needs a FILE.');
      const shopId = stringValue(v.shop);
      if (shopId === undefined || shopId.trim() === '') throw new UsageError('patron import audience needs --shop <shop_id>.');
      const segment = stringValue(v.segment);
      if (segment !== undefined && !/^[1-9][0-9]{0,14}$/.test(segment)) {
        throw new UsageError('patron import audience: --segment must be a segment id (a positive integer).');
      }
      const format = stringValue(v.format);
      if (format !== undefined && format !== 'csv' && format !== 'jsonl') {
        throw new UsageError('patron import audience: --format must be csv or jsonl.');
      }
      return {
        kind: 'import-audience',
        file,
        shopId: shopId.trim(),
        ...(segment === undefined ? {} : { segmentId: Number(segment) }),
        ...(format === undefined ? {} : { format }),
      };
    },
  },
  {
    words: ['recommendations', 'evaluate'],
    options: { shop: { type: 'string' }, 'test-days': { type: 'string' } },
    build: (v) => {
      const shopId = stringValue(v.shop);
      if (shopId === undefined || shopId.trim() === '') throw new UsageError('patron recommendations evaluate needs --shop <shop_id>.');
      const days = stringValue(v['test-days']) ?? '14';
      if (!/^[1-9][0-9]{0,2}$/.test(days) || Number(days) > 365) {
        throw new UsageError('patron recommendations evaluate: --test-days must be a whole number of days from 1 to 365.');
      }
      return { kind: 'recommendations-evaluate', shopId: shopId.trim(), testDays: Number(days) };
    },
  },
  {
    words: ['backup'],
    options: { force: { type: 'boolean' } },
    positionals: 1,
    build: (v, positionals) => {
      const destination = positionals[0];
      if (destination === undefined || destination.trim() === '') throw new UsageError('patron backup needs a destination FILE.');
      return { kind: 'backup', destination, force: v.force === true };
    },
  },
];

export const USAGE = `Usage: patron <command> [options]

Commands:
  serve [--no-worker]   Run the HTTP server, with job workers in the same process
                        unless --no-worker is given
  worker                Run job workers alone, without HTTP
  migrate               Apply pending database migrations
  shop create --name <name> [--currency <ISO 4217>] [--timezone <IANA zone>]
                        Create a shop and print its shop_id and shop_secret
  demo                  Create the demo shop ("Demo shop") with sample data, once
  admin-token rotate    Replace the admin token and print the new one, once
  secret-key adopt      Record this PATRON_SECRET_KEY as the one every process on the
                        database must hold (after changing the key on every process)
  user create --email <email> --role owner|admin|marketer|analyst [--shops <id>,<id>]
                        Invite a user of the admin UI: prints a one-time link
  user reset-password --email <email>
                        Sign the user out everywhere and print a one-time link
                        to set a new password
  import feed FILE|URL --shop <shop_id> [--format yml|json]
                        Import a product feed (YML or JSON) into the shop's catalog,
                        with a progress bar on stderr
  import audience FILE --shop <shop_id> [--segment <id>] [--format csv|jsonl]
                        Import customers from a CSV (header row) or JSON Lines file,
                        optionally into a segment, with a progress bar on stderr
  recommendations evaluate --shop <shop_id> [--test-days 14]
                        Build the recommenders on the shop's events before the last
                        N days and print how well each predicts those days
  backup FILE [--force] Copy the SQLite database to FILE while servers run (online,
                        consistent); PostgreSQL: use pg_dump (docs/deploy.md)

Options:
  -h, --help            Show this help
  -v, --version         Print the version

Settings come from environment variables: PORT, HOST, PATRON_DATA_DIR, DATABASE_URL,
PATRON_ADMIN_TOKEN, LOG_LEVEL, PATRON_BODY_LIMIT, PATRON_WORKER_CONCURRENCY and the
others README.md lists.
`;

/** Parses argv (without node and the script): leading words pick the command, the rest are its options. */
export function parseCommand(argv: readonly string[]): Command {
  if (argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') return { kind: 'help' };
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) return { kind: 'version' };
  if (argv.length === 0) throw new UsageError('No command given.');

  const firstOption = argv.findIndex((arg) => arg.startsWith('-'));
  const words = firstOption === -1 ? argv : argv.slice(0, firstOption);
  const spec = COMMANDS.find((c) => c.words.length <= words.length && c.words.every((word, i) => words[i] === word));
  if (!spec) {
    const group = COMMANDS.filter((c) => c.words.length > 1 && c.words[0] === words[0]);
    if (group.length > 0 && words.length === 1) {
      throw new UsageError(`patron ${words[0]} needs a subcommand: ${group.map((c) => c.words[1]).join(', ')}.`);
    }
    throw new UsageError(`Unknown command "${words.join(' ') || argv.join(' ')}".`);
  }

  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({
      args: argv.slice(spec.words.length),
      options: spec.options,
      strict: true,
      allowPositionals: true,
    }) as { values: Values; positionals: string[] };
  } catch (error) {
    throw new UsageError(`patron ${spec.words.join(' ')}: ${(error as Error).message}`);
  }
  if (parsed.positionals.length > (spec.positionals ?? 0)) {
    throw new UsageError(`patron ${spec.words.join(' ')}: unexpected argument "${parsed.positionals[spec.positionals ?? 0]}".`);
  }
  return spec.build(parsed.values, parsed.positionals);
}

function requiredEmail(value: string | boolean | undefined, command: string): string {
  const email = stringValue(value)?.trim();
  if (email === undefined || !/^[^\s@]{1,64}@[^\s@.]+(\.[^\s@.]+)+$/.test(email) || email.length > 254) {
    throw new UsageError(`patron ${command} needs --email <email>.`);
  }
  return email;
}

function stringValue(value: string | boolean | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
