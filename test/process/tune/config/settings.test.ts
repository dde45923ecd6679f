import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { openSettings } from '../../../../src/core/settings.js';
import { BIN as bin } from '../../../helpers/bin.js';

const dirs: string[] = [];
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'servelab-conf-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('settings', () => {
  it('persists checked values in the given folder', () => {
    const dir = tmp();
    const s = openSettings(dir);
    expect(s.path.startsWith(dir)).toBe(true);
    expect(s.set('engines', 'sglang, vllm')).toEqual(['sglang', 'vllm']);
    s.set('gpu-hour-price', '2.5');
    s.addRecentModel('a');
    s.addRecentModel('b');
    s.addRecentModel('a');
    const again = openSettings(dir);
    expect(again.get('engines')).toEqual(['sglang', 'vllm']);
    expect(again.get('gpu-hour-price')).toBe(2.5);
    expect(again.get('recent-models')).toEqual(['a', 'b']);
    expect(JSON.parse(readFileSync(s.path, 'utf8')).engines).toEqual(['sglang', 'vllm']);
    again.unset('engines');
    expect(openSettings(dir).get('engines')).toBeUndefined();
  });

  it('rejects bad values and unknown keys', () => {
    const s = openSettings(tmp());
    expect(() => s.set('engines', 'vllm,tgi')).toThrow(/unknown engine 'tgi'/);
    expect(() => s.set('slo', 'ttft<2')).toThrow(/^bad slo part 'ttft<2'/);
    expect(() => s.set('dataset-path', '/no/such/file.json')).toThrow(/no such file/);
    expect(() => s.set('colour', 'red')).toThrow(/unknown setting 'colour'/);
    // The config key's words, not the flag's; frontier is a session choice (a load sweep), not a saved default.
    expect(() => s.set('objective', 'frontier')).toThrow(
      "objective: use one of total, output, request, goodput, got 'frontier' (frontier runs a load sweep: pass --objective frontier --slo ... to servelab --auto; it is not saved)",
    );
    expect(() => s.set('objective', 'speed')).toThrow("objective: use one of total, output, request, goodput, got 'speed'");
    expect(s.set('objective', 'Output')).toBe('output');
    // The slo key too: its refusal names the key, not the --slo flag.
    expect(() => s.set('slo', 'ttft<2000')).toThrow(/^bad slo part 'ttft<2000': expected METRIC:STAT<MS/);
  });

  it('servelab config set/get/list round-trips through the CLI with SERVELAB_CONFIG_DIR', () => {
    const env = { ...process.env, SERVELAB_CONFIG_DIR: tmp() };
    const run = (...args: string[]) => spawnSync(process.execPath, [bin, 'config', ...args], { encoding: 'utf8', env });
    expect(run('set', 'margin', '3').status).toBe(0);
    expect(run('get', 'margin').stdout.trim()).toBe('3');
    expect(run('list').stdout).toContain('margin=3');
    const bad = run('set', 'margin', 'lots');
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(run('get', 'port').status).toBe(1);
  });
});
