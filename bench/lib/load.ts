import autocannon from 'autocannon';

/**
 * The push load: `cart` or `view` events (POST /push) or custom events (POST /push/custom) from N
 * keep-alive connections (no pipelining) for a fixed time, every request a fresh body.
 * The device rotates over the prepared ones and the item id over a small catalogue, as a
 * real shop's traffic would; each request carries a unique marker (the item's line_id,
 * or the custom event's label) so that the events stored can be matched to the
 * responses the client saw: autocannon drops the requests still in flight when the time
 * is up, and the server may still commit those.
 */

/** `cart` or `view` (a product view in the device's session) on POST /push, or a custom event with this code on POST /push/custom. */
export type PushLoadEvent = { readonly kind: 'cart' } | { readonly kind: 'view' } | { readonly kind: 'custom'; readonly code: string };

/** The body of one push of the load: the item's line_id, or the custom event's label, carries the marker. */
export function pushBody(shopId: string, device: BenchDevice, event: PushLoadEvent, item: string, marker: string, seq: number): unknown {
  switch (event.kind) {
    case 'cart':
      return {
        shop_id: shopId,
        did: device.did,
        event: 'cart',
        items: [{ id: item, amount: 1 + (seq % 3), price: 100 + (seq % 50), line_id: marker }],
      };
    case 'view':
      return { shop_id: shopId, did: device.did, sid: device.sid, event: 'view', items: [{ id: item, line_id: marker }] };
    case 'custom':
      return { shop_id: shopId, did: device.did, sid: device.sid, event: event.code, label: marker };
  }
}

export interface BenchDevice {
  readonly did: string;
  readonly sid: string;
}

export interface LoadOptions {
  readonly url: string;
  readonly shopId: string;
  readonly devices: readonly BenchDevice[];
  readonly event: PushLoadEvent;
  readonly connections: number;
  readonly durationSec: number;
  /** Prefix of the markers of this run, so that two runs against one shop never collide. */
  readonly markerPrefix: string;
  readonly catalogueSize?: number;
}

export interface LoadResult {
  readonly durationSec: number;
  readonly ok: number;
  readonly non2xx: number;
  readonly statusCodes: Readonly<Record<string, number>>;
  readonly errors: number;
  readonly timeouts: number;
  /** Requests written but not answered when the time was up. */
  readonly cutOff: number;
  readonly eventsPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Markers of the requests answered 2xx. */
  readonly acknowledged: ReadonlySet<string>;
}

interface RequestContext {
  marker?: string;
  startedAt?: number;
}

export async function runPushLoad(options: LoadOptions): Promise<LoadResult> {
  const catalogue = options.catalogueSize ?? 500;
  const acknowledged = new Set<string>();
  const latencies: number[] = [];
  let seq = 0;

  const result = await autocannon({
    url: `${options.url}${options.event.kind === 'custom' ? '/push/custom' : '/push'}`,
    connections: options.connections,
    pipelining: 1,
    duration: options.durationSec,
    timeout: 10,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        setupRequest(request, context: RequestContext) {
          seq += 1;
          const marker = `${options.markerPrefix}${seq}`;
          context.marker = marker;
          context.startedAt = performance.now();
          const device = options.devices[seq % options.devices.length]!;
          request.body = JSON.stringify(pushBody(options.shopId, device, options.event, `sku-${(seq * 7919) % catalogue}`, marker, seq));
          return request;
        },
        onResponse(status, _body, context: RequestContext) {
          if (context.startedAt !== undefined) latencies.push(performance.now() - context.startedAt);
          if (status >= 200 && status < 300 && context.marker !== undefined) acknowledged.add(context.marker);
        },
      },
    ],
  });

  latencies.sort((a, b) => a - b);
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count ?? 0]));
  const answered = result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx'];
  return {
    durationSec: result.duration,
    ok: result['2xx'],
    non2xx: result.non2xx,
    statusCodes,
    errors: result.errors,
    timeouts: result.timeouts,
    cutOff: Math.max(0, result.requests.sent - answered),
    eventsPerSec: result['2xx'] / result.duration,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    acknowledged,
  };
}

function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}
