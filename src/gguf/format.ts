// The GGUF v3 file format as data: metadata value types, tensor (ggml) types with their block
// sizes, and the in-memory shape of a header. Source: llama.cpp ggml/include/gguf.h and
// gguf-py/gguf/constants.py (GGUFValueType, GGMLQuantizationType, GGML_QUANT_SIZES) at 80fb11a.

export const GGUF_MAGIC = 'GGUF';
export const GGUF_VERSION = 3;
/** general.alignment when the file does not set it (gguf.h GGUF_DEFAULT_ALIGNMENT). */
export const GGUF_DEFAULT_ALIGNMENT = 32;

/** gguf_type (gguf.h) / GGUFValueType (constants.py). */
export const ValueType = {
  UINT8: 0,
  INT8: 1,
  UINT16: 2,
  INT16: 3,
  UINT32: 4,
  INT32: 5,
  FLOAT32: 6,
  BOOL: 7,
  STRING: 8,
  ARRAY: 9,
  UINT64: 10,
  INT64: 11,
  FLOAT64: 12,
} as const;
export type ValueTypeId = (typeof ValueType)[keyof typeof ValueType];

/** Fixed byte size of each scalar value type (strings and arrays have none). */
export const SCALAR_SIZE: Readonly<Partial<Record<number, number>>> = {
  0: 1,
  1: 1,
  2: 2,
  3: 2,
  4: 4,
  5: 4,
  6: 4,
  7: 1,
  10: 8,
  11: 8,
  12: 8,
};

/** A metadata value as read or to be written; arrays keep their element type. */
export type GgufValue =
  | { type: Exclude<ValueTypeId, 8 | 9>; value: number | bigint | boolean }
  | { type: 8; value: string }
  | { type: 9; elemType: ValueTypeId; value: (number | bigint | boolean | string)[] };

export interface TensorInfo {
  name: string;
  /** ne[0] first (the fastest-varying dimension), as GGUF stores them. */
  dims: number[];
  /** ggml_type id. */
  type: number;
  /** Offset from the start of the data section (read files only). */
  offset?: number;
}

export interface GgufHeader {
  version: number;
  metadata: Map<string, GgufValue>;
  tensors: TensorInfo[];
  alignment: number;
  /** Byte offset where the tensor data starts (read files only). */
  dataOffset?: number;
}

/** GGMLQuantizationType name -> [id, elements per block, bytes per block] (GGML_QUANT_SIZES). */
export const GGML_TYPES: Readonly<Record<string, readonly [number, number, number]>> = {
  F32: [0, 1, 4],
  F16: [1, 1, 2],
  Q4_0: [2, 32, 18],
  Q4_1: [3, 32, 20],
  Q5_0: [6, 32, 22],
  Q5_1: [7, 32, 24],
  Q8_0: [8, 32, 34],
  Q8_1: [9, 32, 40],
  Q2_K: [10, 256, 84],
  Q3_K: [11, 256, 110],
  Q4_K: [12, 256, 144],
  Q5_K: [13, 256, 176],
  Q6_K: [14, 256, 210],
  Q8_K: [15, 256, 292],
  IQ2_XXS: [16, 256, 66],
  IQ2_XS: [17, 256, 74],
  IQ3_XXS: [18, 256, 98],
  IQ1_S: [19, 256, 50],
  IQ4_NL: [20, 32, 18],
  IQ3_S: [21, 256, 110],
  IQ2_S: [22, 256, 82],
  IQ4_XS: [23, 256, 136],
  I8: [24, 1, 1],
  I16: [25, 1, 2],
  I32: [26, 1, 4],
  I64: [27, 1, 8],
  F64: [28, 1, 8],
  IQ1_M: [29, 256, 56],
  BF16: [30, 1, 2],
  TQ1_0: [34, 256, 54],
  TQ2_0: [35, 256, 66],
  MXFP4: [39, 32, 17],
  NVFP4: [40, 64, 36],
  Q1_0: [41, 128, 18],
  Q2_0: [42, 64, 18],
};

export function ggmlTypeName(id: number): string {
  return Object.entries(GGML_TYPES).find(([, v]) => v[0] === id)?.[0] ?? `type${id}`;
}

/** Bytes of a tensor's data (unpadded). */
export function tensorBytes(t: TensorInfo): number {
  const row = Object.values(GGML_TYPES).find((v) => v[0] === t.type);
  if (!row) throw new Error(`GGUF: unknown tensor type ${t.type} (${t.name})`);
  const n = t.dims.reduce((a, b) => a * b, 1);
  return (n / row[1]) * row[2];
}

export function alignUp(n: number, align: number): number {
  return Math.ceil(n / align) * align;
}

/** Shorthands for building metadata. */
export const str = (value: string): GgufValue => ({ type: ValueType.STRING, value });
export const u32 = (value: number): GgufValue => ({ type: ValueType.UINT32, value });
export const f32 = (value: number): GgufValue => ({ type: ValueType.FLOAT32, value });

/** A metadata value as a plain JS value (arrays as arrays), for callers that only read. */
export function plain(v: GgufValue | undefined): unknown {
  if (!v) return undefined;
  if (typeof v.value === 'bigint') return Number(v.value);
  return v.value;
}
