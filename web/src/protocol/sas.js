// The short authentication string (spec/protocol.md §5.5): the top 39 of the 40 SAS bits as three
// 13-bit numbers, most significant first, each shown plus 1000, joined by "-".

/**
 * @param {Uint8Array} sasBytes the 5 SAS bytes
 * @returns {string}
 */
export function sasString(sasBytes) {
  if (sasBytes.length !== 5) throw new RangeError('the SAS is 5 bytes');
  let v = 0n;
  for (const b of sasBytes) v = (v << 8n) | BigInt(b);
  const bits = v >> 1n;
  const groups = [(bits >> 26n) & 0x1fffn, (bits >> 13n) & 0x1fffn, bits & 0x1fffn];
  return groups.map((g) => String(Number(g) + 1000)).join('-');
}
