// Samples in 32-bit words, for every shader family: 8-bit samples are the
// word's bytes, 10-bit ones its 16-bit halves (docs/spec.md "High bit
// depth"), so no 8- or 16-bit storage feature is needed. A "unit" is one
// sample slot of a row: byte b or half b of a word, of whichever channel.
// The including shader declares the specialisation constants
//   DEPTH: 8, or 10 for 16-bit words;
//   LSB:   the value's lowest bit in its word (P010: 6, else 0).

const int BYTES = DEPTH > 8 ? 2 : 1;  // per unit
const int UNIT_BITS = 8 * BYTES;
const int UNITS_LOG2 = 2 - (BYTES - 1);  // log2 of the units per word
const int UNITS = 1 << UNITS_LOG2;
const int MAXV = (1 << DEPTH) - 1;
const int CS = DEPTH - 8;  // docs/spec.md's cs

// Unit i of a word as it is stored, bits outside the value included.
int unit_raw(uint word, int i) {
  return int(bitfieldExtract(word, UNIT_BITS * i, UNIT_BITS));
}

// The value of unit i (input bits outside it ignored).
int unit_value(uint word, int i) { return (unit_raw(word, i) >> LSB) & MAXV; }

// Stores unit i as raw bits.
uint set_unit_raw(uint word, int i, int raw) {
  return bitfieldInsert(word, uint(raw), UNIT_BITS * i, UNIT_BITS);
}

// Stores value v into unit i, the bits outside it 0.
uint set_unit_value(uint word, int i, int v) {
  return set_unit_raw(word, i, v << LSB);
}

// The word with its first `inside` units reduced to their values' bits (the
// others, row padding, as they are): what a copy of a sample writes.
uint clean_units(uint word, int inside) {
  uint mask = 0u;
  for (int i = 0; i < UNITS; i++)
    mask |= uint(i < inside ? MAXV << LSB : (1 << UNIT_BITS) - 1)
            << (UNIT_BITS * i);
  return word & mask;
}
