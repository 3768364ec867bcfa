import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A certificate chain like Apple's, made with openssl for one test file: a CA standing in
 * for Apple's WWDR, a pass type certificate it signed (the pass signer and APNs client
 * certificate), and a server certificate for a local APNs peer on localhost.
 */
export interface PassCertificates {
  readonly dir: string;
  readonly wwdrCertificate: string;
  readonly signerCertificate: string;
  readonly signerKey: string;
  readonly serverCertificate: string;
  readonly serverKey: string;
  /** The CA file path, for `openssl cms -verify -CAfile`. */
  readonly caFile: string;
  cleanup(): void;
}

export function makePassCertificates(passTypeId: string, teamId: string): PassCertificates {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patron-pass-certs-'));
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=Patron Test WWDR',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  fs.writeFileSync(
    file('signer.ext'),
    'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=clientAuth,emailProtection\n',
  );
  openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'signer.key',
    '-out',
    'signer.csr',
    '-subj',
    `/UID=${passTypeId}/CN=Pass Type ID: ${passTypeId}/OU=${teamId}/O=Patron Test`,
  );
  openssl(
    'x509',
    '-req',
    '-in',
    'signer.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'signer.pem',
    '-days',
    '2',
    '-extfile',
    'signer.ext',
  );
  fs.writeFileSync(
    file('server.ext'),
    'basicConstraints=CA:FALSE\nsubjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n',
  );
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost');
  openssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '2',
    '-extfile',
    'server.ext',
  );
  const read = (name: string) => fs.readFileSync(file(name), 'utf8');
  return {
    dir,
    wwdrCertificate: read('ca.pem'),
    signerCertificate: read('signer.pem'),
    signerKey: read('signer.key'),
    serverCertificate: read('server.pem'),
    serverKey: read('server.key'),
    caFile: file('ca.pem'),
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
