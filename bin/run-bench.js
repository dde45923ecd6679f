#!/usr/bin/env node
// `npm run bench [name]`: run the performance benchmarks in bench/ (they print figures).
import { register } from 'tsx/esm/api';

register();
await import('../bench/run.ts');
