#!/usr/bin/env python3
"""Packs Joe and Kuo's Sobol parameters into src/libs/curand/joe_kuo_6.inc.

  python3 scripts/gen_joe_kuo_inc.py new-joe-kuo-6.21201 > src/libs/curand/joe_kuo_6.inc

The input is the parameter file of https://web.maths.unsw.edu.au/~fkuo/sobol/ (a header
line, then "d s a m_1 .. m_s" for d = 2 .. 21201). cuRAND's Sobol generators take rows 2 ..
20000 (dimensions 1 .. 19999; dimension 0 is van der Corput's), and so does the .inc: one bit
stream, base64 in a C string, read by src/libs/curand/sobol_tables.cpp. Each row is written as

  1 bit          s grew by one from the row before (the first row's s is 1)
  s - 1 bits     a (the primitive polynomial's inner coefficients)
  i - 1 bits     m_i >> 1 for i = 2 .. s (every m_i is odd and below 2^i; m_1 is 1)

each value least significant bit first, the stream filling each byte from its lowest bit:
370 KB of information where the text takes 1.9 MB.
"""
import base64
import sys

ROWS = 19999  # d = 2 .. 20000
LICENCE = """\
// The Sobol parameters (primitive polynomials and initial direction numbers) of S. Joe and
// F. Y. Kuo, new-joe-kuo-6.21201, rows d = 2 .. 20000 (cuRAND's dimensions 1 .. 19999), from
// https://web.maths.unsw.edu.au/~fkuo/sobol/ (S. Joe and F. Y. Kuo, Constructing Sobol
// sequences with better two-dimensional projections, SIAM J. Sci. Comput. 30, 2635-2654, 2008).
// The copy packed was a public mirror of that file (github.com/metod11/November_main_last,
// test-tms/new-joe-kuo-6.21201.txt, md5 15312c8ca2a7644ee4bf69ba5a79822b); the direction
// vectors made from it equal NVIDIA's cuRAND's in all 20000 dimensions.
// Packed by scripts/gen_joe_kuo_inc.py (which says how); do not edit.
//
// -----------------------------------------------------------------------------
// Licence pertaining to sobol.cc and the accompanying sets of direction numbers
// -----------------------------------------------------------------------------
// Copyright (c) 2008, Frances Y. Kuo and Stephen Joe
// All rights reserved.
//
// Redistribution and use in source and binary forms, with or without
// modification, are permitted provided that the following conditions are met:
//
//     * Redistributions of source code must retain the above copyright
//       notice, this list of conditions and the following disclaimer.
//
//     * Redistributions in binary form must reproduce the above copyright
//       notice, this list of conditions and the following disclaimer in the
//       documentation and/or other materials provided with the distribution.
//
//     * Neither the names of the copyright holders nor the names of the
//       University of New South Wales and the University of Waikato
//       and its contributors may be used to endorse or promote products derived
//       from this software without specific prior written permission.
//
// THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS ``AS IS'' AND ANY
// EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE IMPLIED
// WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE
// DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT HOLDERS BE LIABLE FOR ANY
// DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES
// (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES;
// LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND
// ON ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT
// (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE OF THIS
// SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
"""


class BitWriter:
    def __init__(self):
        self.value = 0
        self.length = 0

    def put(self, value, bits):
        assert 0 <= value < (1 << bits), (value, bits)
        self.value |= value << self.length
        self.length += bits

    def bytes(self):
        return self.value.to_bytes((self.length + 7) // 8, "little")


def main():
    lines = open(sys.argv[1]).read().split("\n")
    assert lines[0].split() == ["d", "s", "a", "m_i"], lines[0]
    out = BitWriter()
    degree = 0
    for expected_d, line in zip(range(2, 2 + ROWS), lines[1:]):
        d, s, a, *m = (int(x) for x in line.split())
        assert d == expected_d and len(m) == s and s in (degree, degree + 1), line
        assert m[0] == 1 and all(m_i % 2 == 1 and m_i < (1 << i) for i, m_i in enumerate(m, 1)), line
        out.put(s - degree, 1)
        degree = s
        out.put(a, s - 1)
        for i, m_i in enumerate(m[1:], 2):
            out.put(m_i >> 1, i - 1)
    text = base64.b64encode(out.bytes()).decode()
    sys.stdout.write(LICENCE)
    for start in range(0, len(text), 116):
        sys.stdout.write('"' + text[start : start + 116] + '"\n')


if __name__ == "__main__":
    main()
