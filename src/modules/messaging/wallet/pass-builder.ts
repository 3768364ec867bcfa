import { createRequire } from 'node:module';
import type * as Passkit from 'passkit-generator';
import type { PKPass } from 'passkit-generator';
import type { AppleWalletSettings } from '../providers/apple-wallet.settings.js';
import { buildPassJson, type PassContentInput } from './domain/pass-content.js';
import { rgbOf, squarePng } from './domain/square-png.js';

/**
 * Signs a pass into a .pkpass (a zip of pass.json, images, manifest.json with each
 * file's SHA-1, and `signature`, a detached PKCS #7 signature of the manifest by the pass
 * type certificate with Apple's WWDR certificate in the chain), with passkit-generator.
 */

let loaded: typeof Passkit | undefined;
/**
 * passkit-generator, loaded at the first pass built: with joi and node-forge it cost some
 * 70 ms of CPU in every start of a process and of its job thread, which most servers (no
 * wallet channel) never use. Its CommonJS build, as `require` gives it.
 */
function passkit(): typeof Passkit {
  loaded ??= createRequire(import.meta.url)('passkit-generator') as typeof Passkit;
  return loaded;
}

export class PassBuildError extends Error {
  override readonly name = 'PassBuildError';
}

export function buildPkpass(input: PassContentInput): Buffer {
  const passJson = buildPassJson(input);
  const { settings } = input;
  let pass: PKPass;
  let files: Readonly<Record<string, Buffer>>;
  try {
    pass = new (passkit().PKPass)(images(settings), {
      wwdr: settings.wwdr_certificate,
      signerCert: settings.signer_certificate,
      signerKey: settings.signer_key,
      ...(settings.signer_key_passphrase !== undefined ? { signerKeyPassphrase: settings.signer_key_passphrase } : {}),
    });
    pass.addBuffer('pass.json', Buffer.from(JSON.stringify(passJson), 'utf8'));
    files = pass.getAsRaw();
  } catch {
    // The library's messages name its internals; the admin needs to know what to fix.
    throw new PassBuildError('The pass could not be signed: check the certificates and the key of the wallet channel.');
  }
  // passkit-generator drops what its schema refuses with a console warning, not an error:
  // a pass missing its token or web service would install and never update, so check.
  const written = JSON.parse(files['pass.json']?.toString('utf8') ?? '{}') as Record<string, unknown>;
  for (const key of ['serialNumber', 'authenticationToken', 'webServiceURL', 'passTypeIdentifier']) {
    if (written[key] !== passJson[key]) throw new PassBuildError(`The pass could not be built: its ${key} was refused.`);
  }
  // The library adds the field lists we left out (empty); ours must be there as we wrote them.
  const card = passJson.storeCard as Record<string, unknown>;
  const writtenCard = (written.storeCard ?? {}) as Record<string, unknown>;
  for (const [list, fields] of Object.entries(card)) {
    if (JSON.stringify(writtenCard[list]) !== JSON.stringify(fields)) {
      throw new PassBuildError(`The pass could not be built: its ${list} were refused.`);
    }
  }
  return pass.getAsBuffer();
}

function images(settings: AppleWalletSettings): Record<string, Buffer> {
  const icon = settings.icon_png !== undefined ? Buffer.from(settings.icon_png, 'base64') : undefined;
  const colour = rgbOf(settings.background_color);
  return {
    'icon.png': icon ?? squarePng(29, colour),
    'icon@2x.png': icon ?? squarePng(58, colour),
    ...(settings.logo_png !== undefined ? { 'logo.png': Buffer.from(settings.logo_png, 'base64') } : {}),
  };
}
