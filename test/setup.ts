// Ink treats CI=true specially (lastFrame() becomes a bare newline), so tests render
// frames the same way under CI as locally.
delete process.env.CI;
delete process.env.CONTINUOUS_INTEGRATION;
// Tests never read or write the user's own folders: the server ledger (XDG state), saved
// profiles and runs (XDG data) and settings (XDG config) go to a temporary folder per test file, inherited by the CLIs
// the tests spawn.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const xdg = mkdtempSync(join(tmpdir(), 'servelab-xdg-'));
process.env.XDG_STATE_HOME = join(xdg, 'state');
process.env.XDG_DATA_HOME = join(xdg, 'data');
// Settings too (XDG config): no test may read the user's saved defaults or recent models (they
// would change what a screen shows) or write them.
process.env.XDG_CONFIG_HOME = join(xdg, 'config');
