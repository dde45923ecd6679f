// Where the core's log messages go in a headless command: stderr, one line each, debug left out.
import { setLogSink, type LogLevel, type LogSink } from '../core/logger.js';

/** How a core log message reads on the terminal; null for debug messages, which are not shown. */
export function logLine(level: LogLevel, message: string, prefix = ''): string | null {
  return level === 'debug' ? null : `${prefix}${level === 'info' ? '' : `${level}: `}${message}`;
}

/** A sink writing each shown message to stderr (after `prefix`, e.g. 'servelab: '). */
export function stderrSink(prefix = ''): LogSink {
  return (level, message) => {
    const line = logLine(level, message, prefix);
    if (line !== null) process.stderr.write(line + '\n');
  };
}

/** Send the core's messages to stderr for the rest of this command. */
export function logToStderr(prefix = ''): void {
  setLogSink(stderrSink(prefix));
}
