"""TensorFlow's Philox4x32-10 counter-based generator and SimplePhilox's `Uniform(n)`, as TF 1.15's C++ draws them.

Place in the data flow (DESIGN.md): Python integers <- **contrib.tensor_forest.philox** <-
contrib.tensor_forest.kernels.

TF 1.15's tensor_forest kernels pick the feature of every candidate split with
`SimplePhilox(PhiloxRandom(seed)).Uniform(num_features)`; drawing the same numbers is what makes a tree grown here
the tree TF 1.15 grew from the same seed. The algorithm is TensorFlow's core/lib/random: PhiloxRandom (key = the
seed's low and high 32 bits, counter from 0, ten rounds with the key raised between them, four 32-bit results per
counter step), SingleSampleAdapter (hands the four out one at a time) and ExactUniformInt (a power of two is masked;
otherwise values below (2^32 - 1) % n + 1 are rejected and the rest taken modulo n).

References: Salmon et al. 2011, "Parallel random numbers: as easy as 1, 2, 3" (Philox).
"""

_M0 = 0xD2511F53
_M1 = 0xCD9E8D57
_W0 = 0x9E3779B9
_W1 = 0xBB67AE85
_MASK = 0xFFFFFFFF


def _philox_block(counter, key):
  """The four 32-bit outputs of one counter value (ten rounds)."""
  c0, c1, c2, c3 = counter
  k0, k1 = key
  for round_index in range(10):
    if round_index:
      k0 = (k0 + _W0) & _MASK
      k1 = (k1 + _W1) & _MASK
    p0 = _M0 * c0
    p1 = _M1 * c2
    c0, c1, c2, c3 = ((p1 >> 32) ^ c1 ^ k0, p1 & _MASK, (p0 >> 32) ^ c3 ^ k1, p0 & _MASK)
  return c0, c1, c2, c3


class SimplePhilox(object):
  """`SimplePhilox(new PhiloxRandom(seed))`: 32-bit draws in TF's order, and `uniform(n)` (Uniform)."""

  def __init__(self, seed):
    seed = int(seed) & 0xFFFFFFFFFFFFFFFF
    self._key = (seed & _MASK, seed >> 32)
    self._counter = [0, 0, 0, 0]
    self._buffer = ()
    self._used = 0

  def _next_block(self):
    block = _philox_block(self._counter, self._key)
    for i in range(4):  # SkipOne: the 128-bit counter's increment
      self._counter[i] = (self._counter[i] + 1) & _MASK
      if self._counter[i]:
        break
    return block

  def rand32(self):
    if self._used == len(self._buffer):
      self._buffer = self._next_block()
      self._used = 0
    value = self._buffer[self._used]
    self._used += 1
    return value

  def uniform(self, n):
    """An integer in [0, n), exactly uniform (ExactUniformInt<uint32>)."""
    n = int(n) & _MASK
    if n == 0:
      self.rand32()
      return 0
    if n & (n - 1) == 0:
      return self.rand32() & (n - 1)
    rem = (_MASK % n) + 1
    while True:
      value = self.rand32()
      if value >= rem:
        return value % n
