// Keeping the server and the client apart, for real: taskset pins every thread of a running
// process to the cores given, as /proc/PID/status then says.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findOnPath } from '../../../src/core/which.js';
import { allowedCpus, cpuListText, pinProcess } from '../../../src/host/core-split.js';

const skip = process.platform !== 'linux' ? 'no /proc off Linux' : !findOnPath('taskset') ? 'no taskset (util-linux) on PATH' : '';

describe.skipIf(!!skip)(`taskset on a running process${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('pins all its threads to the cores given, and back', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)'], { stdio: 'ignore' });
    try {
      await new Promise((r) => setTimeout(r, 200));
      const allowed = () => /^Cpus_allowed_list:\s*(.+)$/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]!.trim();
      const all = allowedCpus();
      expect(pinProcess(child.pid!, [all[0]!])).toBeUndefined();
      expect(allowed()).toBe(String(all[0]));
      expect(pinProcess(child.pid!, all)).toBeUndefined();
      expect(allowed()).toBe(cpuListText(all));
      expect(pinProcess(999_999_999, all)).toMatch(/\S/);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
