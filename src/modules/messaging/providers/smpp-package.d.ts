/**
 * The part of the `smpp` package (0.5.x, no bundled types) that Patron and its tests use.
 * Commands are methods generated from the package's command table; PDU fields are the
 * SMPP 3.4 names.
 */
declare module 'smpp' {
  import type { EventEmitter } from 'node:events';
  import type { Server as NetServer, Socket } from 'node:net';

  export interface PDU {
    readonly command: string;
    readonly command_status: number;
    readonly sequence_number: number;
    readonly [field: string]: unknown;
    response(options?: Record<string, unknown>): PDU;
  }

  export type ResponseCallback = (pdu: PDU) => void;

  export interface Session extends EventEmitter {
    readonly socket: Socket;
    send(pdu: PDU, responseCallback?: ResponseCallback): boolean;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
    pause(): void;
    resume(): void;
    bind_transmitter(options: Record<string, unknown>, responseCallback?: ResponseCallback): boolean;
    submit_sm(options: Record<string, unknown>, responseCallback?: ResponseCallback): boolean;
    enquire_link(options: Record<string, unknown>, responseCallback?: ResponseCallback): boolean;
    unbind(options: Record<string, unknown>, responseCallback?: ResponseCallback): boolean;
  }

  export interface ConnectOptions {
    readonly host: string;
    readonly port: number;
    readonly family?: number;
  }

  export interface SmppServer extends NetServer {
    readonly sessions: Session[];
  }

  interface Smpp {
    connect(options: ConnectOptions, listener?: () => void): Session;
    createServer(options: Record<string, unknown>, listener: (session: Session) => void): SmppServer;
    /** Every command_status by its ESME_* name. */
    readonly errors: Readonly<Record<string, number>>;
  }

  const smpp: Smpp;
  export default smpp;
}
