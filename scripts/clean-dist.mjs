// `npm run build` starts from an empty dist/, so a module deleted from src/ cannot linger there
// and still be loaded by a stale import. Plain node (no shell `rm`), so it also runs on Windows.
import { rmSync } from 'node:fs';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
