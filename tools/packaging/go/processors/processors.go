// Package processors holds the specs' custom process routines for the Go
// parsers (paimon_layouts.processors.<name> in a spec), with the same rules
// and finding codes as every other language's.
package processors

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// MaxDecompressed bounds the size a block may claim before anything is allocated.
const MaxDecompressed = 1 << 30

// ProcessError is a routine refusing its input; Code is the finding code.
type ProcessError struct {
	Code string
	Msg  string
}

func (e *ProcessError) Error() string { return e.Code + ": " + e.Msg }

func refuse(code, format string, args ...any) error {
	return &ProcessError{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// Crc32 is the bytes' java.util.zip.CRC32 as 4 bytes big-endian.
func Crc32(data []byte) ([]byte, error) {
	out := make([]byte, 4)
	binary.BigEndian.PutUint32(out, crc32.ChecksumIEEE(data))
	return out, nil
}

// Utf8Strict passes well-formed UTF-8 unchanged and refuses anything else.
func Utf8Strict(data []byte) ([]byte, error) {
	if !utf8.Valid(data) {
		return nil, refuse("UTF8_INVALID", "malformed UTF-8")
	}
	return data, nil
}

// JavaMutf8 re-encodes Java modified UTF-8 (DataInput.readUTF) as UTF-8; a lone surrogate becomes U+FFFD.
func JavaMutf8(data []byte) ([]byte, error) {
	units := make([]uint16, 0, len(data))
	n := len(data)
	for i := 0; i < n; {
		b := data[i]
		switch {
		case b < 0x80:
			units = append(units, uint16(b))
			i++
		case b&0xE0 == 0xC0:
			if i+1 >= n || data[i+1]&0xC0 != 0x80 {
				return nil, refuse("MUTF8_INVALID", "malformed 2-byte sequence at byte %d", i)
			}
			units = append(units, uint16(b&0x1F)<<6|uint16(data[i+1]&0x3F))
			i += 2
		case b&0xF0 == 0xE0:
			if i+2 >= n || data[i+1]&0xC0 != 0x80 || data[i+2]&0xC0 != 0x80 {
				return nil, refuse("MUTF8_INVALID", "malformed 3-byte sequence at byte %d", i)
			}
			units = append(units, uint16(b&0x0F)<<12|uint16(data[i+1]&0x3F)<<6|uint16(data[i+2]&0x3F))
			i += 3
		default:
			return nil, refuse("MUTF8_INVALID", "byte 0x%02x at %d cannot start a modified UTF-8 sequence", b, i)
		}
	}
	// utf16.Decode turns every unpaired surrogate into U+FFFD
	return []byte(string(utf16.Decode(units))), nil
}

func readVarInt(data []byte) (int32, int, error) {
	var acc uint32
	for i := 0; i < 5; i++ {
		if i >= len(data) {
			return 0, 0, refuse("BLOCK_DECOMPRESS", "the block ends inside its uncompressed length")
		}
		b := data[i]
		acc |= uint32(b&0x7F) << (7 * i)
		if b&0x80 == 0 {
			return int32(acc), i + 1, nil
		}
	}
	return 0, 0, refuse("BLOCK_DECOMPRESS", "the uncompressed length is a malformed varint")
}

// BlockDecompress is an SST block's content as Java Paimon's BlockDecompressor gives it.
func BlockDecompress(compression int64, data []byte) ([]byte, error) {
	switch compression {
	case 0:
		return data, nil
	case 1, 2:
	case 3:
		return nil, refuse("BLOCK_NOT_DECODED", "an LZO block: no LZO decoder is at hand, the content is not checked")
	default:
		return nil, refuse("BLOCK_BAD_COMPRESSION", "compression id %d (Unknown persistentId)", compression)
	}
	length, pos, err := readVarInt(data)
	if err != nil {
		return nil, err
	}
	if length < 0 {
		return nil, refuse("BLOCK_DECOMPRESS", "uncompressed length %d is negative", length)
	}
	if length > MaxDecompressed {
		return nil, refuse("BLOCK_DECOMPRESS", "a block stating %d uncompressed bytes", length)
	}
	if compression == 1 {
		return zstdExact(data[pos:], int64(length), "BLOCK_DECOMPRESS")
	}
	return lz4Block(data[pos:], int(length))
}

// ZstdBlock is a row file's block decompressed into exactly size bytes (ZstdBlockDecompressor).
func ZstdBlock(size int64, data []byte) ([]byte, error) {
	return zstdExact(data, size, "ROW_FILE_BLOCK_DECOMPRESS")
}

func zstdExact(data []byte, size int64, code string) ([]byte, error) {
	if size < 0 || size > MaxDecompressed {
		return nil, refuse(code, "a block stating %d uncompressed bytes", size)
	}
	dec, err := zstd.NewReader(bytes.NewReader(data), zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(MaxDecompressed+1))
	if err != nil {
		return nil, refuse(code, "zstd: %v", err)
	}
	defer dec.Close()
	out := make([]byte, size+1) // one byte more, to tell "more than stated" from "exactly"
	got, err := io.ReadFull(dec, out)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, refuse(code, "zstd refuses the block: %v", err)
	}
	if int64(got) != size {
		if int64(got) > size {
			return nil, refuse(code, "zstd gives more than %d bytes where the index states %d", size, size)
		}
		return nil, refuse(code, "zstd gives %d bytes where the index states %d", got, size)
	}
	return out[:size], nil
}

func lz4Block(data []byte, length int) ([]byte, error) {
	if len(data) < 8 {
		return nil, refuse("BLOCK_DECOMPRESS", "an LZ4 block shorter than its 8-byte header")
	}
	compressed := int32(binary.LittleEndian.Uint32(data))
	original := int32(binary.LittleEndian.Uint32(data[4:]))
	if original < 0 || compressed < 0 || (original == 0) != (compressed == 0) {
		return nil, refuse("BLOCK_DECOMPRESS", "LZ4 header lengths %d/%d (invalid length)", compressed, original)
	}
	if int(original) > length || int(compressed) > len(data)-8 {
		return nil, refuse("BLOCK_DECOMPRESS", "LZ4 header lengths %d/%d do not fit the block", compressed, original)
	}
	out := make([]byte, length)
	got := 0
	if original > 0 {
		n, err := lz4.UncompressBlock(data[8:8+compressed], out[:original])
		if err != nil {
			return nil, refuse("BLOCK_DECOMPRESS", "lz4 refuses the block: %v", err)
		}
		got = n
	}
	if got != int(original) || got != length {
		return nil, refuse("BLOCK_DECOMPRESS", "lz4 gives %d bytes where the block states %d", got, length)
	}
	return out, nil
}
