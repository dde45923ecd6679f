// The GPU vendors servelab knows: what tells a host's tools (nvidia-smi or amd-smi), its device
// selection variable and the engines' builds apart. One list; the catalogue and the detected host
// each say which vendor a GPU is.
export type GpuVendor = 'nvidia' | 'amd';
