import { describe, expect, it } from 'vitest';
import { parseDsn } from '../../../src/modules/messaging/domain/dsn.js';

/** Samples written for these tests in the shapes common MTAs send; lines joined with CRLF like on the wire. */
const crlf = (lines: string[]): string => lines.join('\r\n');

const POSTFIX_HARD = crlf([
  'Return-Path: <>',
  'From: MAILER-DAEMON@mx.example.net (Mail Delivery System)',
  'To: bounces@shop.example.org',
  'Subject: Undelivered Mail Returned to Sender',
  'Message-Id: <20261126101500.AB12C3@mx.example.net>',
  'MIME-Version: 1.0',
  'Content-Type: multipart/report; report-type=delivery-status;',
  '\tboundary="A1B2C3.1764152100/mx.example.net"',
  '',
  'This is a MIME-encapsulated message.',
  '',
  '--A1B2C3.1764152100/mx.example.net',
  'Content-Description: Notification',
  'Content-Type: text/plain; charset=us-ascii',
  '',
  'This is the mail system at host mx.example.net.',
  '',
  "I'm sorry to have to inform you that your message could not",
  'be delivered to one or more recipients.',
  '',
  '<anna@example.com>: host mail.example.com[203.0.113.5] said: 550 5.1.1',
  '    <anna@example.com>: Recipient address rejected: User unknown (in reply to',
  '    RCPT TO command)',
  '',
  '--A1B2C3.1764152100/mx.example.net',
  'Content-Description: Delivery report',
  'Content-Type: message/delivery-status',
  '',
  'Reporting-MTA: dns; mx.example.net',
  'X-Postfix-Queue-ID: AB12C3',
  'X-Postfix-Sender: rfc822; bounces@shop.example.org',
  'Arrival-Date: Thu, 26 Nov 2026 10:14:58 +0000 (UTC)',
  '',
  'Final-Recipient: rfc822; anna@example.com',
  'Original-Recipient: rfc822;anna@example.com',
  'Action: failed',
  'Status: 5.1.1',
  'Remote-MTA: dns; mail.example.com',
  'Diagnostic-Code: smtp; 550 5.1.1 <anna@example.com>: Recipient address rejected:',
  '    User unknown',
  '',
  '--A1B2C3.1764152100/mx.example.net',
  'Content-Description: Undelivered Message Headers',
  'Content-Type: text/rfc822-headers',
  '',
  'From: Shop <shop@example.org>',
  'To: anna@example.com',
  'Subject: =?UTF-8?B?0JLQsNGIINC30LDQutCw0Lc=?=',
  'Message-ID: <5b0e2a4c-1f7e-4c1e-9d51-7a3c9e2f0b11@example.org>',
  '',
  '--A1B2C3.1764152100/mx.example.net--',
  '',
]);

const TWO_RECIPIENTS_ONE_DELAYED = crlf([
  'From: postmaster@relay.example.net',
  'Subject: Delivery Status Notification (Delay)',
  'Content-Type: multipart/report; report-type="delivery-status"; boundary="==b"',
  '',
  '--==b',
  'Content-Type: text/plain',
  '',
  'Delivery to these recipients has been delayed.',
  '--==b',
  'Content-Type: message/delivery-status',
  '',
  'Reporting-MTA: dns;relay.example.net',
  '',
  'Final-Recipient: RFC822; <boris@example.com>',
  'Action: Delayed',
  'Status: 4.4.7',
  'Diagnostic-Code: smtp; 451 4.4.7 Message expired waiting for greylisting',
  'Will-Retry-Until: Sat, 28 Nov 2026 10:00:00 +0000',
  '',
  'Final-Recipient: rfc822;vera@example.com',
  'Action: failed',
  'Status: 5.2.2',
  'Diagnostic-Code: smtp;552 5.2.2 Mailbox full',
  '',
  '--==b',
  'Content-Type: message/rfc822',
  '',
  'Message-ID: <abc@example.org>',
  'Subject: hi',
  '',
  'body of the original',
  '--==b--',
]);

describe('parseDsn', () => {
  it('reads a Postfix multipart/report: recipient, action, status, hard, diagnostic and the original Message-ID', () => {
    expect(parseDsn(POSTFIX_HARD)).toEqual({
      ok: true,
      format: 'delivery-status',
      originalMessageId: '<5b0e2a4c-1f7e-4c1e-9d51-7a3c9e2f0b11@example.org>',
      recipients: [
        {
          recipient: 'anna@example.com',
          action: 'failed',
          status: '5.1.1',
          hard: true,
          diagnostic: '550 5.1.1 <anna@example.com>: Recipient address rejected: User unknown',
        },
      ],
    });
  });

  it('reads every recipient group: a delayed one is soft, a failed one hard', () => {
    const report = parseDsn(TWO_RECIPIENTS_ONE_DELAYED);
    expect(report).toEqual({
      ok: true,
      format: 'delivery-status',
      originalMessageId: '<abc@example.org>',
      recipients: [
        {
          recipient: 'boris@example.com',
          action: 'delayed',
          status: '4.4.7',
          hard: false,
          diagnostic: '451 4.4.7 Message expired waiting for greylisting',
        },
        { recipient: 'vera@example.com', action: 'failed', status: '5.2.2', hard: true, diagnostic: '552 5.2.2 Mailbox full' },
      ],
    });
  });

  it('reads the same report with LF line ends', () => {
    expect(parseDsn(POSTFIX_HARD.replace(/\r\n/g, '\n'))).toEqual(parseDsn(POSTFIX_HARD));
  });

  it('decodes a base64 delivery-status part inside a nested multipart, and RFC 6533 global reports', () => {
    const status = Buffer.from(
      'Reporting-MTA: dns; mx.example.net\r\n\r\nFinal-Recipient: rfc822; ивана@пример.рф\r\nAction: failed\r\nStatus: 5.1.1\r\n',
    ).toString('base64');
    const raw = crlf([
      'Content-Type: multipart/mixed; boundary=outer',
      '',
      '--outer',
      'Content-Type: multipart/report; report-type=delivery-status; boundary=inner',
      '',
      '--inner',
      'Content-Type: message/global-delivery-status',
      'Content-Transfer-Encoding: base64',
      '',
      status.slice(0, 40),
      status.slice(40),
      '--inner--',
      '--outer--',
    ]);
    expect(parseDsn(raw)).toMatchObject({
      ok: true,
      recipients: [{ recipient: 'ивана@пример.рф', action: 'failed', status: '5.1.1', hard: true, diagnostic: undefined }],
    });
  });

  it('takes the status from the diagnostic when the Status field is missing or malformed', () => {
    const raw = crlf([
      'Content-Type: multipart/report; report-type=delivery-status; boundary=b',
      '',
      '--b',
      'Content-Type: message/delivery-status',
      '',
      'Reporting-MTA: dns; mx.example.net',
      '',
      'Final-Recipient: rfc822; anna@example.com',
      'Action: failed',
      'Status: unknown',
      'Diagnostic-Code: smtp; 550 5.7.1 Message rejected due to content restrictions',
      '--b--',
    ]);
    expect(parseDsn(raw)).toMatchObject({ ok: true, recipients: [{ status: '5.7.1', hard: true }] });
  });

  it('reads a qmail plain-text bounce by its status code', () => {
    const raw = crlf([
      'From: MAILER-DAEMON@mail.example.net',
      'Subject: failure notice',
      '',
      'Hi. This is the qmail-send program at mail.example.net.',
      "I'm afraid I wasn't able to deliver your message to the following addresses.",
      "This is a permanent error; I've given up. Sorry it didn't work out.",
      '',
      '<anna@example.com>:',
      '192.0.2.7 does not like recipient.',
      'Remote host said: 550 5.1.1 Mailbox does not exist',
      'Giving up on 192.0.2.7.',
      '',
      '--- Below this line is a copy of the message.',
      '',
      'Message-ID: <orig-1@example.org>',
      'From: Shop <shop@example.org>',
    ]);
    expect(parseDsn(raw)).toEqual({
      ok: true,
      format: 'plain-text',
      originalMessageId: '<orig-1@example.org>',
      recipients: [
        {
          recipient: 'anna@example.com',
          action: 'failed',
          status: '5.1.1',
          hard: true,
          diagnostic: 'Remote host said: 550 5.1.1 Mailbox does not exist',
        },
      ],
    });
  });

  it('reads an Exim plain-text bounce, naming the recipient of X-Failed-Recipients, and a bare 4xx reply as soft', () => {
    const raw = crlf([
      'From: Mail Delivery System <Mailer-Daemon@mx.example.net>',
      'X-Failed-Recipients: boris@example.com',
      'Subject: Mail delivery failed: returning message to sender',
      '',
      'This message was created automatically by mail delivery software.',
      '',
      '  boris@example.com',
      '    host mx.example.com [203.0.113.5]',
      '    SMTP error from remote mail server after RCPT TO:<boris@example.com>:',
      '    452 Too many recipients received this hour',
    ]);
    expect(parseDsn(raw)).toMatchObject({
      ok: true,
      format: 'plain-text',
      recipients: [
        {
          recipient: 'boris@example.com',
          action: 'delayed',
          status: '4.0.0',
          hard: false,
          diagnostic: '452 Too many recipients received this hour',
        },
      ],
    });
  });

  it('refuses a message that is not a bounce, and does not take an IP address or version for a status', () => {
    const raw = crlf([
      'From: anna@example.com',
      'Subject: Re: your order',
      '',
      'Thanks! Delivered to 192.0.2.45 on Postfix 2.11.3, see you at 5.30.',
      'Order 550 arrived.',
    ]);
    expect(parseDsn(raw)).toEqual({
      ok: false,
      reason: 'No delivery status or recognizable SMTP status code was found in the report.',
    });
    expect(parseDsn('')).toMatchObject({ ok: false });
  });

  it('ignores a delivery-status group without an action it knows', () => {
    const raw = crlf([
      'Content-Type: multipart/report; boundary=b',
      '',
      '--b',
      'Content-Type: message/delivery-status',
      '',
      'Final-Recipient: rfc822; anna@example.com',
      'Action: exploded',
      'Status: 5.1.1',
      '--b--',
    ]);
    expect(parseDsn(raw)).toMatchObject({ ok: false });
  });

  it('bounds its work on a huge or deeply nested input and the length of a diagnostic', () => {
    const deep = `${'Content-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\n'.repeat(200)}Content-Type: text/plain\r\n\r\nhello`;
    expect(parseDsn(deep)).toMatchObject({ ok: false });
    const long = POSTFIX_HARD.replace('\r\n    User unknown\r\n', `\r\n    User unknown ${'x'.repeat(5000)}\r\n`);
    const report = parseDsn(long);
    expect(report.ok && report.recipients[0]?.diagnostic?.length).toBe(500);
    const started = performance.now();
    expect(parseDsn(`Subject: x\r\n\r\n${'a'.repeat(20 * 1024 * 1024)}`)).toMatchObject({ ok: false });
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
