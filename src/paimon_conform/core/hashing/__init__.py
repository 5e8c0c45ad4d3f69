"""Every hash the kit computes as Java does: `murmur` (BinaryRow and BinaryString hashCode, Murmur3 x86_32 seed
42, scalar and over numpy words), `java` (other hashCodes, java.util.HashMap's iteration order), `fasthash`
(the bloom filter's FastHash: Thomas Wang's 64-bit hash and XXH64), `kernels` (the compiled loops) and
`kernel_calls` (where small inputs take a numpy path instead)."""
