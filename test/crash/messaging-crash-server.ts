import { Type } from '@sinclair/typebox';
import { buildApp } from '../../src/app.js';
import { systemClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import type { EmailMessage, Provider, SendResult } from '../../src/modules/messaging/providers/provider.js';
import { openMigratedDatabase } from '../../src/process/database.js';
import { createJobRunner } from '../../src/process/job-runner.js';
import { createLogger } from '../../src/process/logger.js';

/**
 * The server of the messaging crash test: the real app and job runner on the database of
 * the environment, with an email vendor that hands each message to the test's local HTTP
 * peer (PEER_URL), which counts what it receives. Prints `LISTENING <url>` when serving.
 * The test kills it with SIGKILL, so it has no shutdown of its own.
 */

class PeerEmailProvider implements Provider<'email', { smtp_url: string; from: string }> {
  readonly vendor = 'smtp';
  readonly channel = 'email' as const;
  readonly settingsSchema = Type.Object({ smtp_url: Type.String(), from: Type.String() });
  readonly secretFields: readonly string[] = [];

  async send(_settings: unknown, message: EmailMessage): Promise<SendResult> {
    try {
      const response = await fetch(process.env.PEER_URL ?? '', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ to: message.to, messageId: `<${message.idKey}@patron>`, subject: message.subject }),
      });
      return response.ok ? { ok: true } : { ok: false, kind: 'temporary', message: `peer answered ${response.status}` };
    } catch (error) {
      return { ok: false, kind: 'temporary', message: String(error) };
    }
  }
}

const config = loadConfig();
const { db } = await openMigratedDatabase(config);
const app = await buildApp({ config, db, clock: systemClock, logger: false });
app.services.messagingProviders.replace(new PeerEmailProvider());
await app.services.adminToken.ensure();
const runner = createJobRunner({ config, services: app.services, clock: systemClock, log: createLogger('silent') });
runner.start();
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
if (address === null || typeof address === 'string') throw new Error('no address');
process.stdout.write(`LISTENING http://127.0.0.1:${address.port}\n`);
