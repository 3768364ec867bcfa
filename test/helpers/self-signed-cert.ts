import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface SelfSignedCert {
  /** PEM private key of the server. */
  readonly key: string;
  /** PEM certificate, also what a client passes as `ca` to trust it. */
  readonly cert: string;
}

/**
 * A throwaway certificate for a local TLS peer (an HTTP/2 push service), valid for
 * `localhost` and 127.0.0.1, made with the openssl command line since node:crypto cannot
 * issue certificates.
 */
export function selfSignedCert(): SelfSignedCert {
  const dir = mkdtempSync(path.join(tmpdir(), 'patron-cert-'));
  try {
    const keyFile = path.join(dir, 'key.pem');
    const certFile = path.join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        keyFile,
        '-out',
        certFile,
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
      ],
      { stdio: 'pipe' },
    );
    return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
