import sharp from 'sharp';
import { startLocalHttpServer, type LocalHttpServer } from '../../helpers/local-http-server.js';

/**
 * A real HTTP peer serving pictures made with sharp, and the bad cases a feed brings:
 * a 404, an HTML page, a text file that claims to be a PNG, a file over the size limit,
 * a picture over the pixel limit, a server that is busy (503) and a link that never answers.
 */
export interface PictureServer extends LocalHttpServer {
  /** A 300×200 PNG, red at half opacity (transparency must end up on white). */
  readonly pngUrl: string;
  /** An 800×1200 blue JPEG (portrait: contain pads it left and right). */
  readonly jpegUrl: string;
  readonly missingUrl: string;
  readonly htmlUrl: string;
  readonly fakePngUrl: string;
  readonly hugeUrl: string;
  readonly giantUrl: string;
  readonly hangingUrl: string;
  /** Answers 503: a passing failure. */
  readonly busyUrl: string;
  /** Bytes over which hugeUrl is, and the pixel count over which giantUrl is. */
  readonly limits: { readonly maxBytes: number; readonly maxPixels: number };
}

const MAX_BYTES = 200_000;
const MAX_PIXELS = 4_000_000;

export async function startPictureServer(): Promise<PictureServer> {
  const png = await sharp({ create: { width: 300, height: 200, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 0.5 } } })
    .png()
    .toBuffer();
  const jpeg = await sharp({ create: { width: 800, height: 1200, channels: 3, background: { r: 0, g: 0, b: 255 } } })
    .jpeg()
    .toBuffer();
  // 3000×3000 of one colour compresses to a few KB: small file, too many pixels.
  const giant = await sharp({ create: { width: 3000, height: 3000, channels: 3, background: { r: 0, g: 128, b: 0 } } })
    .png()
    .toBuffer();
  const server = await startLocalHttpServer((request, response) => {
    const path = (request.url ?? '').split('?', 1)[0];
    switch (path) {
      case '/a.png':
        response.writeHead(200, { 'content-type': 'image/png' }).end(png);
        return;
      case '/b.jpg':
        response.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg);
        return;
      case '/page.html':
        response.writeHead(200, { 'content-type': 'text/html' }).end('<html>not a picture</html>');
        return;
      case '/fake.png':
        response.writeHead(200, { 'content-type': 'image/png' }).end('just some text');
        return;
      case '/huge.jpg':
        response.writeHead(200, { 'content-type': 'image/jpeg' }).end(Buffer.alloc(MAX_BYTES + 1, 0xff));
        return;
      case '/giant.png':
        response.writeHead(200, { 'content-type': 'image/png' }).end(giant);
        return;
      case '/busy.jpg':
        response.writeHead(503, { 'content-type': 'text/plain' }).end('try later');
        return;
      case '/hanging.jpg':
        return; // never answers
      default:
        response.writeHead(404, { 'content-type': 'text/plain' }).end('no such picture');
    }
  });
  return {
    ...server,
    pngUrl: `${server.url}/a.png`,
    jpegUrl: `${server.url}/b.jpg`,
    missingUrl: `${server.url}/missing.png`,
    htmlUrl: `${server.url}/page.html`,
    fakePngUrl: `${server.url}/fake.png`,
    hugeUrl: `${server.url}/huge.jpg`,
    giantUrl: `${server.url}/giant.png`,
    hangingUrl: `${server.url}/hanging.jpg`,
    busyUrl: `${server.url}/busy.jpg`,
    limits: { maxBytes: MAX_BYTES, maxPixels: MAX_PIXELS },
  };
}
