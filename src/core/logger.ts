// The core never writes to stdout/stderr directly (it would tear Ink's frame). It logs through
// this small logger; the CLI decides where lines go (stderr in headless mode, nowhere in the TUI).
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogSink = (level: LogLevel, message: string) => void;

let sink: LogSink = () => {};

export function setLogSink(next: LogSink): void {
  sink = next;
}

export const log = {
  debug: (m: string) => sink('debug', m),
  info: (m: string) => sink('info', m),
  warn: (m: string) => sink('warn', m),
  error: (m: string) => sink('error', m),
};
