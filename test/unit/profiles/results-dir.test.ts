// Where results go: the user's data folder by default (XDG_DATA_HOME), or --out; never servelab's
// own profiles/ folder, which the tests list and git tracks.
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { parseAutoArgs } from '../../../src/cli/auto-args.js';
import { SHIPPED_PROFILES_DIR } from '../../../src/profiles/store/shipped.js';
import { saveProfile } from '../../../src/profiles/store/store.js';
import { qwen3Study } from '../../../scripts/studies.js';
import { dataDir } from '../../../src/host/xdg.js';

describe('results folders', () => {
  it('default to the XDG data folder, not the current folder', () => {
    const { config } = parseAutoArgs(['--sim', '--model', 'Qwen/Qwen3-14B']);
    expect(dataDir()).toBe(join(process.env.XDG_DATA_HOME!, 'servelab'));
    expect(config!.outDir).toBe(dataDir());
    expect(config!.runsDir).toBe(join(dataDir(), 'runs'));
    expect(parseAutoArgs(['--sim', '--model', 'Qwen/Qwen3-14B', '--out', '/tmp/x']).config!.outDir).toBe('/tmp/x');
  });

  it('--out at a servelab clone is refused before anything runs (exit 2)', () => {
    expect(() => parseAutoArgs(['--sim', '--model', 'Qwen/Qwen3-14B', '--out', dirname(SHIPPED_PROFILES_DIR)])).toThrow(
      /shipped study profiles.*give another folder/,
    );
  });

  it('a session profile is never saved into the shipped folder', () => {
    const before = readdirSync(SHIPPED_PROFILES_DIR);
    expect(() => saveProfile({ ...qwen3Study(), source: 'session' }, SHIPPED_PROFILES_DIR)).toThrow(
      /refusing to save a profile into servelab's own/,
    );
    expect(readdirSync(SHIPPED_PROFILES_DIR)).toEqual(before);
  });
});
