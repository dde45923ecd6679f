// A Slurm job seen as the runner sees a server process: tail, stop, and its end (exit/exited,
// for server-death.ts). While it lives it is registered with the signal handlers (Ctrl-C,
// SIGTERM, SIGHUP scancel it and wait; the exit hook scancels synchronously) and recorded in the
// server ledger by job ID, so a servelab that dies (SIGKILL, OOM killer) leaves an entry that
// `servelab gpus` cancels (leftovers.ts).
import type { ExitInfo } from '../../../host/launch-spec.js';
import { clearLaunch, recordLaunch } from '../../../host/ledger.js';
import { register, unregister } from '../../../host/registry.js';
import { cancelJobSync, isFinished, queryJob, type SlurmCli, type SlurmJobHandle } from '../../../host/slurm/index.js';

export interface JobServer {
  tail(n?: number): string[];
  stop(): Promise<void>;
  readonly exit: ExitInfo | undefined;
  exited: Promise<ExitInfo>;
  /** Start watching for the job's end (once it serves); polled, Slurm has no push. */
  watch(everyMs?: number): void;
}

export function jobServer(job: SlurmJobHandle, cli: SlurmCli, at: { argv: string[]; runDir: string; port: number }): JobServer {
  const slurmConf = process.env.SLURM_CONF ?? cli.env?.SLURM_CONF;
  const ledger = recordLaunch({
    argv: at.argv,
    launchArgv: ['sbatch', job.scriptPath],
    wrapper: 'none',
    runDir: at.runDir,
    port: at.port,
    slurmJob: { id: job.jobId, ...(slurmConf ? { env: { SLURM_CONF: slurmConf } } : {}) },
  });
  let exit: ExitInfo | undefined;
  let settle!: (e: ExitInfo) => void;
  const exited = new Promise<ExitInfo>((r) => (settle = r));
  const end = (e: ExitInfo) => {
    if (exit) return;
    exit = e;
    settle(e);
  };
  let timer: NodeJS.Timeout | undefined;
  let stopping: Promise<void> | undefined;
  const stoppable = { pid: -1, stop: () => server.stop(), killNow: () => void cancelJobSync(cli, job.jobId) };
  register(stoppable);
  const server: JobServer = {
    tail: (n) => job.tail(n),
    get exit() {
      return exit;
    },
    exited,
    watch(everyMs = 1000) {
      timer ??= setInterval(() => {
        void queryJob(cli, job.jobId).then(
          (info) => {
            if (!info || isFinished(info.state))
              end({ code: info?.exitCode ?? null, signal: info?.signal ? `signal ${info.signal}` : null });
          },
          () => undefined,
        );
      }, everyMs);
      timer.unref();
    },
    stop() {
      stopping ??= (async () => {
        clearInterval(timer);
        try {
          await job.stop();
        } finally {
          unregister(stoppable);
          clearLaunch(ledger);
          end({ code: null, signal: 'SIGTERM' });
        }
      })();
      return stopping;
    },
  };
  return server;
}
