import { expect } from 'vitest';
import type { TestApp } from '../helpers/app.js';

/** A device and a session of the shop, issued the way SDKs get them: GET /init. */
export async function initDevice(t: TestApp, shopId: string): Promise<{ did: string; sid: string }> {
  const response = await t.app.inject({ method: 'GET', url: `/init?shop_id=${shopId}&v=3` });
  expect(response.statusCode, response.body).toBe(200);
  const { did, sid } = response.json<{ did: string; sid: string }>();
  return { did, sid };
}

/** The profile of a device, through the tracking service's own events. */
export async function profileOfDevice(t: TestApp, shopId: string, did: string): Promise<number> {
  const [event] = await t.app.services.tracking.listEvents(shopId, did, 1);
  if (!event) throw new Error(`Device ${did} has no event yet`);
  return event.profileId;
}
