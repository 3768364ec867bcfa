import { ChannelListener } from '../../src/db/postgres/channel-listener.js';

/**
 * A process whose only open thing is a listener it never closes (channel-listener.test.ts):
 * it must end by itself once its work is done, as a process does whose shutdown forgot it.
 */
const listener = new ChannelListener({
  url: process.env.LISTEN_URL ?? '',
  channel: 'test_alone',
  applicationName: 'test-listener-alone',
  onNotification: () => undefined,
  onConnected: () => undefined,
});
await listener.start();
process.stdout.write(`listening: ${listener.stats().connected}\n`);
