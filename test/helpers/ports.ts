// Ports for tests, picked in one place. A run that takes consecutive ports from a base (a tuning
// session, a replay) gets a random base in 20000-39999, so files running side by side rarely meet
// and the launcher skips any port in use; a single server gets a port the OS says is free now.
import net from 'node:net';

/** A random port base in [20000, 40000) for a run that takes ports upward from it. */
export const testPort = (): number => 20000 + Math.floor(Math.random() * 20000);

/** A port that is free now: the OS picks it (bind to port 0), and it is released at once for the caller. */
export function freeTestPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}
