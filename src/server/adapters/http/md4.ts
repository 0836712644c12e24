// MD4 (RFC 1320), which NTLM's NT hash needs (MD4 of the UTF-16LE password). Node 20's OpenSSL 3 keeps MD4 in its
// legacy provider, which Node does not load (`crypto.createHash('md4')` throws "unsupported"), so it is written here.
// MD4 is broken as a hash; it is used only because the NTLM protocol defines the NT hash with it.

const rotateLeft = (value: number, bits: number): number => ((value << bits) | (value >>> (32 - bits))) >>> 0;

/** Round 2's G(x, y, z): the majority of the three bits. */
const majority = (x: number, y: number, z: number): number => (x & y) | (x & z) | (y & z);

/**
 * The 16-byte MD4 digest of `message`.
 * Before: the bytes of "abc"; after: a448017aaf21d8525fc10ae87aa6729d.
 */
export function md4(message: Uint8Array): Buffer {
  // Padding: a 1 bit, zeros up to 56 bytes mod 64, then the bit length as a 64-bit little-endian number.
  const paddedLength = (((message.length + 8) >>> 6) + 1) << 6;
  const padded = Buffer.alloc(paddedLength);
  padded.set(message);
  padded[message.length] = 0x80;
  const bitLength = message.length * 8;
  padded.writeUInt32LE(bitLength >>> 0, paddedLength - 8);
  padded.writeUInt32LE(Math.floor(bitLength / 2 ** 32), paddedLength - 4);

  let a = 0x67452301;
  let b = 0xefcdab89;
  let c = 0x98badcfe;
  let d = 0x10325476;
  const block = new Uint32Array(16);
  for (let offset = 0; offset < paddedLength; offset += 64) {
    for (let index = 0; index < 16; index += 1) block[index] = padded.readUInt32LE(offset + index * 4);
    const [startA, startB, startC, startD] = [a, b, c, d];
    // Round 1: F(x, y, z) = x ? y : z, words in order, shifts 3 7 11 19.
    for (const index of [0, 4, 8, 12]) {
      a = rotateLeft(a + ((b & c) | (~b & d)) + block[index], 3);
      d = rotateLeft(d + ((a & b) | (~a & c)) + block[index + 1], 7);
      c = rotateLeft(c + ((d & a) | (~d & b)) + block[index + 2], 11);
      b = rotateLeft(b + ((c & d) | (~c & a)) + block[index + 3], 19);
    }
    // Round 2: G = majority, words by column, constant √2, shifts 3 5 9 13.
    for (const index of [0, 1, 2, 3]) {
      a = rotateLeft(a + majority(b, c, d) + block[index] + 0x5a827999, 3);
      d = rotateLeft(d + majority(a, b, c) + block[index + 4] + 0x5a827999, 5);
      c = rotateLeft(c + majority(d, a, b) + block[index + 8] + 0x5a827999, 9);
      b = rotateLeft(b + majority(c, d, a) + block[index + 12] + 0x5a827999, 13);
    }
    // Round 3: H = x ^ y ^ z, words in bit-reversed order, constant √3, shifts 3 9 11 15.
    for (const index of [0, 2, 1, 3]) {
      a = rotateLeft(a + (b ^ c ^ d) + block[index] + 0x6ed9eba1, 3);
      d = rotateLeft(d + (a ^ b ^ c) + block[index + 8] + 0x6ed9eba1, 9);
      c = rotateLeft(c + (d ^ a ^ b) + block[index + 4] + 0x6ed9eba1, 11);
      b = rotateLeft(b + (c ^ d ^ a) + block[index + 12] + 0x6ed9eba1, 15);
    }
    a = (a + startA) >>> 0;
    b = (b + startB) >>> 0;
    c = (c + startC) >>> 0;
    d = (d + startD) >>> 0;
  }
  const digest = Buffer.alloc(16);
  [a, b, c, d].forEach((word, index) => digest.writeUInt32LE(word, index * 4));
  return digest;
}
