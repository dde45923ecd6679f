// The servelab command the process tests start. By default the bundle (dist/cli.js), which
// test/build-once.ts builds from the current sources before the tests (and again only when a
// source changed): from the sources every start goes through tsx's loader, about 1.1 s more CPU
// per process on this 2-core machine, and a session starts one per simulated engine.
// SERVELAB_TEST_SOURCES=1 runs the sources (bin/servelab.js) instead, as a developer does.
import { fileURLToPath } from 'node:url';

export const SOURCE_BIN = fileURLToPath(new URL('../../bin/servelab.js', import.meta.url));
export const BUILT_BIN = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** Whether the tests start the sources rather than the bundle. */
export const fromSources = (env: NodeJS.ProcessEnv = process.env) => !!env.SERVELAB_TEST_SOURCES;

export const BIN = fromSources() ? SOURCE_BIN : BUILT_BIN;
