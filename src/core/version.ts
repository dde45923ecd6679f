import { readFileSync } from 'node:fs';

// Read once from package.json so profiles record the exact servelab version.
export const VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
