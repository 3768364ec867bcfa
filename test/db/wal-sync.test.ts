import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WalSyncer } from '../../src/db/sqlite/wal-sync.js';
import { waitFor } from '../helpers/wait.js';

describe('WalSyncer', () => {
  let dir: string;
  let syncer: WalSyncer | undefined;

  afterEach(async () => {
    await syncer?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function open(withFile: boolean): string {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patron-wal-'));
    const file = path.join(dir, 'db.sqlite-wal');
    if (withFile) fs.writeFileSync(file, 'frames');
    syncer = new WalSyncer(file, 0);
    return file;
  }

  it('resolves without flushing while the log does not exist yet', async () => {
    open(false);
    await syncer!.sync();
    expect(syncer!.flushes).toBe(0);
  });

  it('flushes the log once for a lone caller', async () => {
    open(true);
    await syncer!.sync();
    expect(syncer!.flushes).toBe(1);
  });

  it('lets callers that arrive during a flush share the one after it', async () => {
    open(true);
    const first = syncer!.sync();
    const waiting = Array.from({ length: 20 }, () => syncer!.sync());
    await Promise.all([first, ...waiting]);
    // The running flush may have started before their commits: they need one more, and share it.
    expect(syncer!.flushes).toBe(2);
  });

  it('flushes a changed log in the background, and an unchanged one not again', async () => {
    const file = open(true);
    await syncer!.close();
    syncer = new WalSyncer(file, 20);
    const background = syncer;
    await waitFor(() => background.flushes === 1, { what: 'the first background flush' });
    // Several ticks of an unchanged log flush nothing more.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(background.flushes).toBe(1);
    fs.appendFileSync(file, 'more frames');
    await waitFor(() => background.flushes === 2, { what: 'the flush of the changed log' });
  });

  it('opens the log once when a background look and a sync start together, and closes it', async () => {
    open(true);
    const opened: fs.promises.FileHandle[] = [];
    const realOpen = fs.promises.open.bind(fs.promises);
    const spy = vi.spyOn(fs.promises, 'open').mockImplementation(async (...args: Parameters<typeof realOpen>) => {
      const handle = await realOpen(...args);
      opened.push(handle);
      return handle;
    });
    try {
      const look = (syncer as unknown as { syncIfChanged(): Promise<void> }).syncIfChanged();
      await Promise.all([look, syncer!.sync()]);
      await syncer!.close();
    } finally {
      spy.mockRestore();
    }
    // A second handle would be dropped unclosed, and Node closes it on garbage collection with a warning.
    expect(opened).toHaveLength(1);
    expect(opened[0]!.fd).toBe(-1);
  });
});
