import fs from 'node:fs';

/**
 * The version in package.json. Read at run time rather than imported, because the
 * compiled build's rootDir is src/ and package.json lies outside it; the relative path
 * holds from src/ (tsx) and from dist/ (compiled) alike.
 */
export const PATRON_VERSION: string = (
  JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
