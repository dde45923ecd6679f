import type { BuildOptions } from 'esbuild';
export declare const NODE_BUNDLE: BuildOptions;
