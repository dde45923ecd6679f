// Parent-death supervisor (see deathsig.ts), for hosts without util-linux setpriv.
// Usage: node supervise.mjs CMD [ARGS...]. Started as the leader of its own process group; runs
// CMD in the same group, forwards SIGTERM/SIGINT/SIGHUP to it, exits as it exits, and when its
// own parent (servelab) dies, sends SIGTERM to the whole group, then SIGKILL 10 s later.
import { spawn } from 'node:child_process';

const [cmd, ...args] = process.argv.slice(2);
if (!cmd) {
  process.stderr.write('supervise.mjs: no command\n');
  process.exit(2);
}
const parent = process.ppid;
const child = spawn(cmd, args, { stdio: 'inherit' });
child.on('error', (e) => {
  process.stderr.write(`cannot start '${cmd}': ${e.message}\n`);
  process.exit(127);
});
for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
  process.on(s, () => {
    try {
      child.kill(s);
    } catch {
      // already gone
    }
  });
}
// Re-parenting is the portable sign that the parent died: poll for it.
const watch = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(watch);
  try {
    process.kill(-process.pid, 'SIGTERM');
  } catch {
    // group gone
  }
  setTimeout(() => {
    try {
      process.kill(-process.pid, 'SIGKILL');
    } catch {
      // group gone
    }
  }, 10_000).unref();
}, 250);
child.on('exit', (code, signal) => {
  clearInterval(watch);
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  }
  process.exit(code ?? 1);
});
