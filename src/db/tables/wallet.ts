/** Kysely table types: Apple Wallet passes (src/modules/messaging/wallet, docs/messaging-wallet.md). Column conventions: db/dialect.ts. */

export interface WalletPassesTable {
  shop_id: string;
  /** Random and unguessable (128 bits, base64url): it names the pass in the PassKit web service. */
  serial_number: string;
  /** The pass type the pass was issued under (a shop may change its certificate later). */
  pass_type_id: string;
  profile_id: number;
  /** SHA-256 (hex) of the pass's authentication token; the token itself lives only inside the pass. */
  token_hash: string;
  /** The last message shown on the pass (its back field); null before the first. */
  message: string | null;
  created_at: number;
  /** Moves with every change a device must fetch: the web service's Last-Modified and update tag. */
  updated_at: number;
}

export interface WalletRegistrationsTable {
  shop_id: string;
  device_library_id: string;
  pass_type_id: string;
  serial_number: string;
  /** The APNs token the device gave for this pass type; pass-update pushes go to it. */
  push_token: string;
  created_at: number;
  updated_at: number;
}
