import type { AddressInfo } from 'node:net';
import smpp, { type PDU, type Session } from 'smpp';

/** A submit_sm as it came over the wire, parsed from the raw bytes (not by the package's decoder). */
export interface RawSubmit {
  readonly serviceType: string;
  readonly sourceTon: number;
  readonly sourceNpi: number;
  readonly sourceAddr: string;
  readonly destTon: number;
  readonly destNpi: number;
  readonly destinationAddr: string;
  readonly esmClass: number;
  readonly dataCoding: number;
  readonly shortMessage: Buffer;
}

export interface SmppPeer {
  readonly port: number;
  readonly binds: { system_id: string; password: string; system_type: string; command: string }[];
  readonly submits: RawSubmit[];
  readonly unbinds: number[];
  /** Sessions accepted so far. */
  readonly sessions: Session[];
  /** How the peer answers the next submit_sm: a status and message_id, or no answer at all. */
  answer: (index: number) => { status: number; messageId?: string } | 'hang';
  close(): Promise<void>;
}

/**
 * The `smpp` package's own server as the SMSC: it checks the bind's credentials
 * (system_id "patron", password "secret1") and records every submit_sm from the raw bytes
 * the client wrote.
 */
export async function startSmppPeer(): Promise<SmppPeer> {
  const peer = {
    binds: [],
    submits: [],
    unbinds: [],
    sessions: [],
    answer: (index: number) => ({ status: 0, messageId: `msg-${index + 1}` }),
  } as unknown as SmppPeer & { port: number };
  let submitted = 0;
  const server = smpp.createServer({}, (session) => {
    peer.sessions.push(session);
    let raw = Buffer.alloc(0);
    // With a 'readable' listener present (the package's), 'data' only reports what it reads.
    session.socket.on('data', (chunk: Buffer) => {
      raw = Buffer.concat([raw, chunk]);
      while (raw.length >= 4 && raw.length >= raw.readUInt32BE(0)) {
        const length = raw.readUInt32BE(0);
        const pdu = raw.subarray(0, length);
        raw = raw.subarray(length);
        if (pdu.readUInt32BE(4) === 0x00000004) peer.submits.push(parseSubmit(pdu));
      }
    });
    session.on('bind_transmitter', (pdu: PDU) => {
      peer.binds.push({
        command: pdu.command,
        system_id: String(pdu.system_id),
        password: String(pdu.password),
        system_type: String(pdu.system_type),
      });
      const ok = pdu.system_id === 'patron' && pdu.password === 'secret1';
      session.send(pdu.response({ command_status: ok ? 0 : smpp.errors.ESME_RINVPASWD, system_id: 'peer' }));
    });
    session.on('submit_sm', (pdu: PDU) => {
      const answer = peer.answer(submitted++);
      if (answer === 'hang') return;
      session.send(pdu.response({ command_status: answer.status, message_id: answer.messageId ?? '' }));
    });
    session.on('enquire_link', (pdu: PDU) => session.send(pdu.response()));
    session.on('unbind', (pdu: PDU) => {
      peer.unbinds.push(pdu.sequence_number);
      session.send(pdu.response());
    });
    session.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  peer.port = (server.address() as AddressInfo).port;
  peer.close = () =>
    new Promise<void>((resolve) => {
      for (const session of peer.sessions) session.destroy();
      server.close(() => resolve());
    });
  return peer;
}

function parseSubmit(pdu: Buffer): RawSubmit {
  let offset = 16;
  const cstring = (): string => {
    const end = pdu.indexOf(0, offset);
    const text = pdu.toString('latin1', offset, end);
    offset = end + 1;
    return text;
  };
  const int8 = (): number => pdu[offset++]!;
  const serviceType = cstring();
  const sourceTon = int8();
  const sourceNpi = int8();
  const sourceAddr = cstring();
  const destTon = int8();
  const destNpi = int8();
  const destinationAddr = cstring();
  const esmClass = int8();
  int8(); // protocol_id
  int8(); // priority_flag
  cstring(); // schedule_delivery_time
  cstring(); // validity_period
  int8(); // registered_delivery
  int8(); // replace_if_present_flag
  const dataCoding = int8();
  int8(); // sm_default_msg_id
  const length = int8();
  const shortMessage = Buffer.from(pdu.subarray(offset, offset + length));
  return { serviceType, sourceTon, sourceNpi, sourceAddr, destTon, destNpi, destinationAddr, esmClass, dataCoding, shortMessage };
}
