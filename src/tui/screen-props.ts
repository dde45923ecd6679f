// What the root gives every screen: its size, whether it has the keys, and the ways out. Each
// screen's props extend this (or the part it uses), so the route table passes it once.
export interface ScreenProps {
  width: number;
  height: number;
  /** Only the shown screen listens to keys. */
  isActive?: boolean;
  /** q: leave (the root stops any session first). */
  onQuit: () => void;
  /** Ctrl+C: leave with the interrupt exit code (defaults to onQuit). */
  onInterrupt?: () => void;
}
