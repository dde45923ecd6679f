// An engine build that cannot drive the host's GPUs is named and skipped: a CUDA build on AMD GPUs,
// a ROCm build on NVIDIA GPUs; an unknown build or a matching one passes.
import { describe, expect, it } from 'vitest';
import { buildMismatch } from '../../../../src/tune/session/build-match.js';

describe('buildMismatch', () => {
  it('a CUDA build on an AMD host, a ROCm build on an NVIDIA host', () => {
    expect(buildMismatch({ gpuPlatform: 'cuda' }, [{ vendor: 'amd' }])).toMatch(
      /CUDA build .* cannot drive AMD GPUs: install its ROCm build/,
    );
    expect(buildMismatch({ gpuPlatform: 'rocm', hipVersion: '6.4.43482' }, [{}])).toMatch(
      /ROCm build \(torch.version.hip 6.4.43482\) cannot drive NVIDIA GPUs/,
    );
  });

  it('a matching or unknown build, or no GPU, passes', () => {
    expect(buildMismatch({ gpuPlatform: 'rocm' }, [{ vendor: 'amd' }])).toBeUndefined();
    expect(buildMismatch({ gpuPlatform: 'cuda' }, [{ vendor: 'nvidia' }])).toBeUndefined();
    expect(buildMismatch({}, [{ vendor: 'amd' }])).toBeUndefined();
    expect(buildMismatch({ gpuPlatform: 'rocm' }, [])).toBeUndefined();
  });
});
