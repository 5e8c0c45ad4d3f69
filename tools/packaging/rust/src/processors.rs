//! The specs' custom `process:` routines (`paimon_layouts.processors.<name>` in a spec), with the same rules
//! and finding codes as every other language's. A routine refuses its input with an error
//! `"CODE: message"`, which the parser reports as a decoding error.

use std::io::Read;

/// The largest decompressed size a block may claim; checked before anything is allocated.
pub const MAX_DECOMPRESSED: i64 = 1 << 30;

fn refuse(code: &str, msg: String) -> String {
    format!("{code}: {msg}")
}

/// The bytes' java.util.zip.CRC32, as 4 bytes big-endian.
#[derive(Default)]
pub struct Crc32;

impl Crc32 {
    pub fn new() -> Self {
        Crc32
    }

    pub fn decode(&self, data: &[u8]) -> Result<Vec<u8>, String> {
        Ok(crc32fast::hash(data).to_be_bytes().to_vec())
    }
}

/// Well-formed UTF-8 passed through unchanged; anything else refused (never replaced).
#[derive(Default)]
pub struct Utf8Strict;

impl Utf8Strict {
    pub fn new() -> Self {
        Utf8Strict
    }

    pub fn decode(&self, data: &[u8]) -> Result<Vec<u8>, String> {
        match std::str::from_utf8(data) {
            Ok(_) => Ok(data.to_vec()),
            Err(e) => Err(refuse(
                "UTF8_INVALID",
                format!("malformed UTF-8 at byte {}", e.valid_up_to()),
            )),
        }
    }
}

/// Java modified UTF-8 (DataInput.readUTF) re-encoded as UTF-8; a lone surrogate becomes U+FFFD.
#[derive(Default)]
pub struct JavaMutf8;

impl JavaMutf8 {
    pub fn new() -> Self {
        JavaMutf8
    }

    pub fn decode(&self, data: &[u8]) -> Result<Vec<u8>, String> {
        let mut units: Vec<u16> = Vec::with_capacity(data.len());
        let n = data.len();
        let cont = |i: usize| i < n && data[i] & 0xC0 == 0x80;
        let mut i = 0;
        while i < n {
            let b = data[i];
            if b < 0x80 {
                units.push(b as u16);
                i += 1;
            } else if b & 0xE0 == 0xC0 {
                if !cont(i + 1) {
                    return Err(refuse(
                        "MUTF8_INVALID",
                        format!("malformed 2-byte sequence at byte {i}"),
                    ));
                }
                units.push((((b & 0x1F) as u16) << 6) | (data[i + 1] & 0x3F) as u16);
                i += 2;
            } else if b & 0xF0 == 0xE0 {
                if !cont(i + 1) || !cont(i + 2) {
                    return Err(refuse(
                        "MUTF8_INVALID",
                        format!("malformed 3-byte sequence at byte {i}"),
                    ));
                }
                units.push(
                    (((b & 0x0F) as u16) << 12) | (((data[i + 1] & 0x3F) as u16) << 6) | (data[i + 2] & 0x3F) as u16,
                );
                i += 3;
            } else {
                let msg = format!("byte 0x{b:02x} at {i} cannot start a modified UTF-8 sequence");
                return Err(refuse("MUTF8_INVALID", msg));
            }
        }
        let text: String = char::decode_utf16(units).map(|c| c.unwrap_or('\u{FFFD}')).collect();
        Ok(text.into_bytes())
    }
}

/// The uncompressed length a compressed SST block starts with (MemorySliceInput.readVarLenInt) and its size.
fn stated_length(data: &[u8]) -> Result<(i32, usize), String> {
    let mut acc: u32 = 0;
    for i in 0..5 {
        let Some(&b) = data.get(i) else {
            return Err(refuse(
                "BLOCK_DECOMPRESS",
                "the block ends inside its uncompressed length".into(),
            ));
        };
        acc |= ((b & 0x7F) as u32) << (7 * i);
        if b & 0x80 == 0 {
            return Ok((acc as i32, i + 1));
        }
    }
    Err(refuse(
        "BLOCK_DECOMPRESS",
        "the uncompressed length is a malformed varint".into(),
    ))
}

/// An SST block's content as Java Paimon's BlockDecompressor gives it (BlockCompressionType id as argument).
pub struct BlockDecompress {
    compression: i64,
}

impl BlockDecompress {
    pub fn new(compression: impl Into<i64>) -> Self {
        BlockDecompress {
            compression: compression.into(),
        }
    }

    pub fn decode(&self, data: &[u8]) -> Result<Vec<u8>, String> {
        match self.compression {
            0 => return Ok(data.to_vec()),
            1 | 2 => {}
            3 => {
                let msg = "an LZO block: no LZO decoder is at hand, the content is not checked".to_string();
                return Err(refuse("BLOCK_NOT_DECODED", msg));
            }
            other => {
                return Err(refuse(
                    "BLOCK_BAD_COMPRESSION",
                    format!("compression id {other} (Unknown persistentId)"),
                ))
            }
        }
        let (length, pos) = stated_length(data)?;
        if length < 0 {
            return Err(refuse(
                "BLOCK_DECOMPRESS",
                format!("uncompressed length {length} is negative"),
            ));
        }
        if length as i64 > MAX_DECOMPRESSED {
            return Err(refuse(
                "BLOCK_DECOMPRESS",
                format!("a block stating {length} uncompressed bytes"),
            ));
        }
        if self.compression == 1 {
            zstd_exact(&data[pos..], length as i64, "BLOCK_DECOMPRESS")
        } else {
            lz4_block(&data[pos..], length as usize)
        }
    }
}

/// A row file's block decompressed into exactly its stated size (ZstdBlockDecompressor).
pub struct ZstdBlock {
    size: i64,
}

impl ZstdBlock {
    pub fn new(size: impl Into<i64>) -> Self {
        ZstdBlock { size: size.into() }
    }

    pub fn decode(&self, data: &[u8]) -> Result<Vec<u8>, String> {
        zstd_exact(data, self.size, "ROW_FILE_BLOCK_DECOMPRESS")
    }
}

fn zstd_exact(data: &[u8], size: i64, code: &str) -> Result<Vec<u8>, String> {
    if !(0..=MAX_DECOMPRESSED).contains(&size) {
        return Err(refuse(code, format!("a block stating {size} uncompressed bytes")));
    }
    let decoder = zstd::stream::read::Decoder::with_buffer(data).map_err(|e| refuse(code, format!("zstd: {e}")))?;
    let mut out = Vec::with_capacity(size as usize + 1);
    // one byte more than stated, to tell "more than stated" from "exactly"
    decoder
        .take(size as u64 + 1)
        .read_to_end(&mut out)
        .map_err(|e| refuse(code, format!("zstd refuses the block: {e}")))?;
    let got = out.len() as i64;
    if got > size {
        return Err(refuse(
            code,
            format!("zstd gives more than {size} bytes where the index states {size}"),
        ));
    }
    if got < size {
        return Err(refuse(
            code,
            format!("zstd gives {got} bytes where the index states {size}"),
        ));
    }
    Ok(out)
}

/// Lz4BlockDecompressor: an 8-byte header (compressed, original length, both s4le) and a raw LZ4 block.
fn lz4_block(data: &[u8], length: usize) -> Result<Vec<u8>, String> {
    if data.len() < 8 {
        return Err(refuse(
            "BLOCK_DECOMPRESS",
            "an LZ4 block shorter than its 8-byte header".into(),
        ));
    }
    let compressed = i32::from_le_bytes([data[0], data[1], data[2], data[3]]);
    let original = i32::from_le_bytes([data[4], data[5], data[6], data[7]]);
    if original < 0 || compressed < 0 || (original == 0) != (compressed == 0) {
        let msg = format!("LZ4 header lengths {compressed}/{original} (invalid length)");
        return Err(refuse("BLOCK_DECOMPRESS", msg));
    }
    if original as usize > length || compressed as usize > data.len() - 8 {
        let msg = format!("LZ4 header lengths {compressed}/{original} do not fit the block");
        return Err(refuse("BLOCK_DECOMPRESS", msg));
    }
    let mut out = vec![0u8; length];
    let mut got = 0;
    if original > 0 {
        let input = &data[8..8 + compressed as usize];
        got = lz4_flex::block::decompress_into(input, &mut out[..original as usize])
            .map_err(|e| refuse("BLOCK_DECOMPRESS", format!("lz4 refuses the block: {e}")))?;
    }
    if got != original as usize || got != length {
        return Err(refuse(
            "BLOCK_DECOMPRESS",
            format!("lz4 gives {got} bytes where the block states {length}"),
        ));
    }
    Ok(out)
}
