/// <reference lib="dom" />
/** The page's side of html.ts's encoding: typed arrays travel as {$i32|$f64: base64}. */
function b64bytes(s: string): Uint8Array {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let k = 0; k < bin.length; k++) out[k] = bin.charCodeAt(k);
  return out;
}

export function revive(_key: string, v: unknown): unknown {
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    if (typeof o.$i32 === 'string') return new Int32Array(b64bytes(o.$i32).buffer);
    if (typeof o.$f64 === 'string') return new Float64Array(b64bytes(o.$f64).buffer);
  }
  return v;
}
