import type { Channel } from '../../messaging/index.js';

/** A bulk mailing's reachable audience (docs/bulk.md, "Reachable audience"): its shapes and the refusal's sentence. Pure. */

export interface ChannelReach {
  /** The shop has settings for the channel: without them nothing goes out on it. */
  readonly configured: boolean;
  readonly address: number;
  readonly unsubscribed: number;
  readonly dead: number;
  readonly overCap: number;
  readonly reachable: number;
}

export interface Reach {
  /** Distinct members of the segments, each once however many of them hold it. */
  readonly members: number;
  /** Members reachable on at least one configured channel of those asked. */
  readonly reachable: number;
  readonly channels: ReadonlyMap<Channel, ChannelReach>;
  /** The cap periods counted (the shop's calendar day and ISO week now). */
  readonly periods: { readonly day: string; readonly week: string };
}

/**
 * Why a mailing on `channels` would reach nobody, as one sentence; null when it reaches
 * someone. Names the segments when they are empty, else what stops each channel.
 */
export function unreachableReason(reach: Reach, segmentIds: readonly number[], channels: readonly Channel[]): string | null {
  if (reach.members === 0) {
    const ids = [...new Set(segmentIds)];
    return ids.length === 1 ? `Segment ${ids[0]} has no members.` : `Segments ${ids.join(', ')} have no members.`;
  }
  if (reach.reachable > 0) return null;
  const parts = channels.map((channel) => {
    const r = reach.channels.get(channel);
    if (!r || !r.configured) return `${channel} is not configured`;
    const why = [
      ...(reach.members > r.address ? [`${reach.members - r.address} without an address`] : []),
      ...(r.unsubscribed > 0 ? [`${r.unsubscribed} unsubscribed`] : []),
      ...(r.dead > 0 ? [`${r.dead} bounced or complained`] : []),
      ...(r.overCap > 0 ? [`${r.overCap} over the cap`] : []),
    ];
    return `${channel}: ${why.join(', ')}`;
  });
  return `None of the ${reach.members} members of the segments can be reached (${parts.join('; ')}).`;
}
