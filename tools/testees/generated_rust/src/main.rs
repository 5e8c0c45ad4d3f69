//! A testee in Rust built on the generated parsers (generated/rust, crate paimon-layouts): `decode` of
//! roaring32, roaring64, deletion-vectors and file-index through the kit's testee protocol 1 (JSON lines on stdin/stdout,
//! docs/testee-protocol.md). The starting point a Rust port copies into its own CI: the spec parser does
//! the framing and every check the spec states; this program adds the checks the spec cannot express (a
//! standalone bitmap's trailing bytes, container contents against their cardinality, DV position ranges) and
//! turns the parse tree into the case. Run through tools/testees/generated_rust.py, which builds it.

mod file_index;

use paimon_layouts::deletion_vectors::{DeletionVectors, DeletionVectors_Blob_Bitmap, DeletionVectors_Magic};
use paimon_layouts::kaitai::{BytesReader, KError, KStream, KStruct, OptRc};
use paimon_layouts::roaring32::{Roaring32, Roaring32_Container_Body};
use paimon_layouts::roaring64::Roaring64;
use serde_json::{json, Value};
use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};

const MAX_POSITION_64: i64 = (0x7FFF_FFFE_i64 << 32) | 0x8000_0000;

/// A refusal: a finding code (empty when the parser's own error) and a message.
struct Refused(String, String);

impl From<KError> for Refused {
    fn from(e: KError) -> Self {
        Refused(String::new(), format!("{e}"))
    }
}

fn refuse(code: &str, msg: String) -> Refused {
    Refused(code.to_string(), msg)
}

/// Sorted positions as [start, end] pairs.
#[derive(Default)]
struct Ranges {
    pairs: Vec<[i64; 2]>,
    cardinality: i64,
}

impl Ranges {
    fn run(&mut self, start: i64, end: i64) {
        self.cardinality += end - start + 1;
        if let Some(last) = self.pairs.last_mut() {
            if last[1] + 1 == start {
                last[1] = end;
                return;
            }
        }
        self.pairs.push([start, end]);
    }

    fn last(&self) -> Option<i64> {
        self.pairs.last().map(|p| p[1])
    }
}

fn roaring32(bitmap: &Roaring32, high: i64, out: &mut Ranges) -> Result<(), Refused> {
    for c in bitmap.containers().iter() {
        let key = *c.key()? as i64;
        let card = *c.cardinality()? as i64;
        let base = high | (key << 16);
        let mut held: i64 = 0;
        match &*c.body() {
            Some(Roaring32_Container_Body::Roaring32_RunContainer(body)) => {
                for r in body.runs().iter() {
                    let (start, last) = (*r.start() as i64, *r.last()? as i64);
                    out.run(base + start, base + last);
                    held += last - start + 1;
                }
            }
            Some(Roaring32_Container_Body::Roaring32_ArrayContainer(body)) => {
                let mut previous: i64 = -1;
                for &v in body.values().iter() {
                    if v as i64 <= previous {
                        let msg = format!("value {v} does not exceed the previous {previous}");
                        return Err(refuse("ROARING_ARRAY_NOT_ASCENDING", msg));
                    }
                    previous = v as i64;
                    out.run(base + v as i64, base + v as i64);
                    held += 1;
                }
            }
            Some(Roaring32_Container_Body::Roaring32_BitmapContainer(body)) => {
                let words = body.words();
                for i in 0..words.len() * 8 {
                    if words[i >> 3] >> (i & 7) & 1 != 0 {
                        out.run(base + i as i64, base + i as i64);
                        held += 1;
                    }
                }
                if held == 0 {
                    return Err(refuse(
                        "ROARING_EMPTY_CONTAINER",
                        "bitmap container with no bit set".into(),
                    ));
                }
            }
            None => return Err(refuse("", "a container without a body".into())),
        }
        if held != card {
            let msg = format!("the container holds {held} values, the header says {card}");
            return Err(refuse("ROARING_CARDINALITY_MISMATCH", msg));
        }
    }
    Ok(())
}

fn roaring64(bitmap: &Roaring64) -> Result<Ranges, Refused> {
    let mut out = Ranges::default();
    for b in bitmap.buckets().iter() {
        roaring32(&b.bitmap(), (*b.high_key() as i64) << 32, &mut out)?;
    }
    Ok(out)
}

fn ended(io: &BytesReader) -> Result<(), Refused> {
    if io.pos() != io.size() {
        return Err(refuse(
            "ROARING_TRAILING_BYTES",
            format!("{} bytes after the bitmap", io.size() - io.pos()),
        ));
    }
    Ok(())
}

fn ranges_json(case: &mut Value, r: &Ranges) {
    case["cardinality"] = json!(r.cardinality);
    case["ranges"] = json!(r.pairs);
}

fn parse<T: KStruct + 'static>(io: &BytesReader) -> Result<OptRc<T>, Refused> {
    Ok(T::read_into::<BytesReader, T>(io, None, None)?)
}

fn decode(kind: &str, data: Vec<u8>, types: &Value) -> Result<Value, Refused> {
    if kind == "file-index" {
        return file_index::decode(data, types);
    }
    let io = BytesReader::from(data);
    match kind {
        "roaring32" => {
            let bitmap = parse::<Roaring32>(&io)?;
            ended(&io)?;
            let mut r = Ranges::default();
            roaring32(&bitmap, 0, &mut r)?;
            let mut case = json!({"case_format": 1, "kind": "roaring32"});
            ranges_json(&mut case, &r);
            Ok(case)
        }
        "roaring64" => {
            let bitmap = parse::<Roaring64>(&io)?;
            ended(&io)?;
            let r = roaring64(&bitmap)?;
            let mut case = json!({"case_format": 1, "kind": "roaring64"});
            ranges_json(&mut case, &r);
            Ok(case)
        }
        "deletion-vectors" => {
            let file = parse::<DeletionVectors>(&io)?;
            let mut vectors = Vec::new();
            for v in file.vectors().iter() {
                let blob = v.blob();
                let (name, r) = match (&*blob.magic(), &*blob.bitmap()) {
                    (DeletionVectors_Magic::Bitmap64, Some(DeletionVectors_Blob_Bitmap::Roaring64(b))) => {
                        let r = roaring64(b)?;
                        if r.last().is_some_and(|last| !(0..=MAX_POSITION_64).contains(&last)) {
                            let msg = "a position past Bitmap64DeletionVector's maximum".to_string();
                            return Err(refuse("DV_POSITION_OUT_OF_RANGE", msg));
                        }
                        ("bitmap64", r)
                    }
                    (_, Some(DeletionVectors_Blob_Bitmap::Roaring32(b))) => {
                        let mut r = Ranges::default();
                        roaring32(b, 0, &mut r)?;
                        if r.last().is_some_and(|last| last > i32::MAX as i64) {
                            return Err(refuse("DV_POSITION_OUT_OF_RANGE", "a position past 2^31 - 1".into()));
                        }
                        ("bitmap32", r)
                    }
                    _ => return Err(refuse("", "a vector without a bitmap".into())),
                };
                let mut vector = json!({"bitmap": name, "offset": *v.ofs_vector()?, "length": *v.len_manifest()?});
                ranges_json(&mut vector, &r);
                vectors.push(vector);
            }
            Ok(json!({"case_format": 1, "kind": "deletion-vectors", "version": 1, "vectors": vectors}))
        }
        _ => Err(refuse("", format!("not declared: {kind}"))),
    }
}

fn hex(text: &str) -> Option<Vec<u8>> {
    if text.len() % 2 != 0 || !text.is_ascii() {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok())
        .collect()
}

fn answer(line: &str) -> Option<Value> {
    let req: Value = serde_json::from_str(line).ok()?;
    let id = req["id"].clone();
    let fail = |code: &str, msg: String| {
        let error = if code.is_empty() {
            json!({"message": msg})
        } else {
            json!({"code": code, "message": msg})
        };
        json!({"id": id, "error": error})
    };
    match req["op"].as_str() {
        Some("hello") => Some(json!({
            "id": id, "name": "generated-rust", "version": "0.1.0", "protocol": 1, "java_release": "2.0",
            "capabilities": {"decode": ["roaring32", "roaring64", "deletion-vectors", "file-index"]}
        })),
        Some("decode") => {
            let Some(data) = req["data"].as_str().and_then(hex) else {
                return Some(fail("", "data is not hex".into()));
            };
            let kind = req["kind"].as_str().unwrap_or("").to_string();
            // a panic in a parser is a refusal, not a crash
            Some(
                match catch_unwind(AssertUnwindSafe(|| decode(&kind, data, &req["types"]))) {
                    Ok(Ok(case)) => json!({"id": id, "case": case}),
                    Ok(Err(Refused(code, msg))) => fail(&code, msg),
                    Err(_) => fail("", "panic in the parser".into()),
                },
            )
        }
        Some(op) => Some(fail("", format!("not declared: {op}"))),
        None => None,
    }
}

fn main() {
    std::panic::set_hook(Box::new(|_| {}));
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if serde_json::from_str::<Value>(&line).is_ok_and(|v| v["op"] == "bye") {
            break;
        }
        let reply = answer(&line).map(|v| v.to_string()).unwrap_or_default();
        if writeln!(out, "{reply}").and_then(|_| out.flush()).is_err() {
            break;
        }
    }
}
