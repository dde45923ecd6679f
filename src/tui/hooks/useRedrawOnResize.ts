// A clean redraw after the terminal changes size. Ink erases only the lines of its last frame,
// but the terminal (tmux included) has already re-wrapped the old lines, so pieces of old frames
// stay on screen above the new one. Once the resizing settles, this clears the screen and returns
// a new epoch: keyed on it, the <Static> leaderboard prints again, laid out for the new width.
import { useEffect, useState } from 'react';
import { useStdout } from 'ink';

const CLEAR_SCREEN = '\x1b[2J\x1b[H';

export function useRedrawOnResize(settleMs = 120): number {
  const { stdout, write } = useStdout();
  const [epoch, setEpoch] = useState(0);
  useEffect(() => {
    let timer: NodeJS.Timeout | undefined;
    let last = `${stdout.columns}x${stdout.rows}`;
    const onResize = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const now = `${stdout.columns}x${stdout.rows}`;
        if (now === last) return;
        last = now;
        write(CLEAR_SCREEN);
        setEpoch((e) => e + 1);
      }, settleMs);
    };
    stdout.on('resize', onResize);
    return () => {
      clearTimeout(timer);
      stdout.off('resize', onResize);
    };
  }, [stdout, write, settleMs]);
  return epoch;
}
