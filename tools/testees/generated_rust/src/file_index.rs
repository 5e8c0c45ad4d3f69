//! `decode` of a file-index container: the container and its payloads parsed by the generated parsers
//! (file_index, bloom_filter, bitmap_index, bsi, range_bitmap), each typed payload turned into the column's
//! values row by row, in the kit's logical JSON form of the column's type (the request's `types`). Added here,
//! beyond the specs: payloads must not overlap, every row of a bitmap index is covered once, rows stay below
//! the row count, and a range-bitmap's slices stay within its existence bitmap.

use crate::{refuse, roaring32, Ranges, Refused};
use paimon_layouts::bitmap_index::{BitmapIndex, BitmapIndex_Key, BitmapIndex_KeyKind, BitmapIndex_Key_Value};
use paimon_layouts::bsi::{Bsi, Bsi_Half};
use paimon_layouts::file_index::{FileIndex, FileIndex_IndexEntry, FileIndex_IndexEntry_Payload};
use paimon_layouts::kaitai::{BytesReader, KStruct};
use paimon_layouts::range_bitmap::RangeBitmap;
use paimon_layouts::roaring32::Roaring32;
use paimon_layouts::typed_key::{TypedKey, TypedKey_Kind, TypedKey_Value};
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, HashMap};

const INTEGERS: [&str; 4] = ["TINYINT", "SMALLINT", "INT", "BIGINT"];
const STRINGS: [&str; 3] = ["CHAR", "VARCHAR", "STRING"];
const BSI_TYPES: [&str; 9] = [
    "TINYINT",
    "SMALLINT",
    "INT",
    "BIGINT",
    "DATE",
    "TIME",
    "TIMESTAMP",
    "TIMESTAMP_LTZ",
    "DECIMAL",
];

/// A column type as the kit writes it ("INT", "TIMESTAMP(6)", "DECIMAL(10, 2)", "VARCHAR(20) NOT NULL").
pub struct ColumnType {
    root: String,
    precision: i64,
    scale: i64,
}

fn parse_type(text: &str) -> Result<ColumnType, Refused> {
    let text = text.trim().trim_end_matches(" NOT NULL").trim();
    let (root, args) = match text.split_once('(') {
        Some((root, rest)) => (root.trim(), rest.trim_end_matches(')')),
        None => (text, ""),
    };
    let nums: Vec<i64> = args.split(',').filter_map(|a| a.trim().parse().ok()).collect();
    let root = root.to_string();
    let (precision, scale) = match root.as_str() {
        "TIMESTAMP" | "TIMESTAMP_LTZ" => (nums.first().copied().unwrap_or(6), 0),
        "DECIMAL" => (nums.first().copied().unwrap_or(10), nums.get(1).copied().unwrap_or(0)),
        _ => (0, 0),
    };
    Ok(ColumnType { root, precision, scale })
}

/// A key as an index stores it.
enum Key {
    Int(i64),
    Float(f64),
    Bool(bool),
    Str(Vec<u8>),
}

/// The key kind (the specs' `kind` enum id) a column type is written with, by index.
fn kind_code(t: &ColumnType, range: bool) -> Option<i64> {
    Some(match t.root.as_str() {
        "TINYINT" => 1,
        "SMALLINT" => 2,
        "INT" | "DATE" | "TIME" => 4,
        "BIGINT" | "TIMESTAMP" | "TIMESTAMP_LTZ" => 8,
        "DECIMAL" if range && t.precision <= 18 => 8,
        "FLOAT" => 14,
        "DOUBLE" => 18,
        "BOOLEAN" => 21,
        r if STRINGS.contains(&r) => 99,
        _ => return None,
    })
}

fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

fn iso_date(days: i64) -> Result<String, Refused> {
    let (y, m, d) = civil_from_days(days);
    if !(0..=9999).contains(&y) {
        return Err(refuse("", format!("day {days} is outside the years 0000..9999")));
    }
    Ok(format!("{y:04}-{m:02}-{d:02}"))
}

/// Python's str(Decimal(unscaled).scaleb(-scale)): plain notation unless the exponent is very small.
fn decimal_text(unscaled: i64, scale: i64) -> String {
    let digits = unscaled.unsigned_abs().to_string();
    let sign = if unscaled < 0 { "-" } else { "" };
    let n = digits.len() as i64;
    let adjusted = n - 1 - scale;
    if scale < 0 || adjusted < -6 {
        let rest = if n > 1 {
            format!(".{}", &digits[1..])
        } else {
            String::new()
        };
        let exp = if adjusted >= 0 {
            format!("+{adjusted}")
        } else {
            adjusted.to_string()
        };
        return format!("{sign}{}{rest}E{exp}", &digits[..1]);
    }
    if scale == 0 {
        return format!("{sign}{digits}");
    }
    if n > scale {
        let cut = (n - scale) as usize;
        format!("{sign}{}.{}", &digits[..cut], &digits[cut..])
    } else {
        format!("{sign}0.{}{digits}", "0".repeat((scale - n) as usize))
    }
}

fn float_json(f: f64) -> Value {
    if f.is_nan() {
        json!("NaN")
    } else if f.is_infinite() {
        json!(if f > 0.0 { "Infinity" } else { "-Infinity" })
    } else {
        json!(f)
    }
}

/// A stored key as the logical JSON value of a column of type `t`.
fn to_json(t: &ColumnType, key: &Key) -> Result<Value, Refused> {
    let root = t.root.as_str();
    Ok(match (root, key) {
        (r, Key::Int(v)) if INTEGERS.contains(&r) => json!(v),
        ("BOOLEAN", Key::Bool(b)) => json!(b),
        ("FLOAT" | "DOUBLE", Key::Float(f)) => float_json(*f),
        ("DATE", Key::Int(days)) => json!(iso_date(*days)?),
        ("TIME", Key::Int(ms)) => {
            let ms = ms.rem_euclid(86_400_000);
            let (h, m, s, milli) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000);
            json!(format!("{h:02}:{m:02}:{s:02}.{milli:03}"))
        }
        ("TIMESTAMP" | "TIMESTAMP_LTZ", Key::Int(v)) => {
            let p = t.precision;
            let (millis, nano) = if p <= 3 {
                (*v, 0)
            } else {
                (v.div_euclid(1000), v.rem_euclid(1000) * 1000)
            };
            let (days, ms) = (millis.div_euclid(86_400_000), millis.rem_euclid(86_400_000));
            let (h, m, s, milli) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000);
            let mut text = format!("{}T{h:02}:{m:02}:{s:02}", iso_date(days)?);
            if p > 0 {
                let frac = format!("{milli:03}{nano:06}");
                text.push('.');
                text.push_str(&frac[..(p as usize).min(9)]);
            }
            json!(text)
        }
        ("DECIMAL", Key::Int(unscaled)) => json!(decimal_text(*unscaled, t.scale)),
        (r, Key::Str(bytes)) if STRINGS.contains(&r) => json!(String::from_utf8_lossy(bytes)),
        _ => return Err(refuse("", format!("a key of another kind than a {root} column's"))),
    })
}

/// The values a roaring bitmap holds, ascending.
fn bitmap_values(bitmap: &Roaring32) -> Result<Vec<i64>, Refused> {
    let mut r = Ranges::default();
    roaring32(bitmap, 0, &mut r)?;
    Ok(r.pairs.iter().flat_map(|p| p[0]..=p[1]).collect())
}

fn bitmap_key(key: &BitmapIndex_Key) -> Result<Key, Refused> {
    Ok(match &*key.value() {
        Some(BitmapIndex_Key_Value::S1(v)) => Key::Int(*v as i64),
        Some(BitmapIndex_Key_Value::S2(v)) => Key::Int(*v as i64),
        Some(BitmapIndex_Key_Value::S4(v)) => Key::Int(*v as i64),
        Some(BitmapIndex_Key_Value::S8(v)) => Key::Int(*v),
        Some(BitmapIndex_Key_Value::F4(v)) => Key::Float(*v as f64),
        Some(BitmapIndex_Key_Value::F8(v)) => Key::Float(*v),
        Some(BitmapIndex_Key_Value::U1(v)) => Key::Bool(*v != 0),
        Some(BitmapIndex_Key_Value::BitmapIndex_StringKey(s)) => Key::Str(s.value().clone()),
        None => return Err(refuse("", "a key of no kind".into())),
    })
}

fn typed_key(key: &TypedKey) -> Result<Key, Refused> {
    Ok(match &*key.value() {
        Some(TypedKey_Value::S1(v)) => Key::Int(*v as i64),
        Some(TypedKey_Value::S2(v)) => Key::Int(*v as i64),
        Some(TypedKey_Value::S4(v)) => Key::Int(*v as i64),
        Some(TypedKey_Value::S8(v)) => Key::Int(*v),
        Some(TypedKey_Value::F4(v)) => Key::Float(*v as f64),
        Some(TypedKey_Value::F8(v)) => Key::Float(*v),
        Some(TypedKey_Value::TypedKey_BooleanKey(b)) => Key::Bool(*b.value() == 1),
        Some(TypedKey_Value::TypedKey_StringKey(s)) => Key::Str(s.value().clone()),
        None => return Err(refuse("", "a key of no kind".into())),
    })
}

/// A bitmap index (V1 or V2): each key's rows, the null rows, every row exactly once.
fn bitmap(payload: &[u8], t: &ColumnType) -> Result<Value, Refused> {
    let code = kind_code(t, false).ok_or_else(|| refuse("", format!("no bitmap index for {}", t.root)))?;
    let io = BytesReader::from(payload);
    let kind = BitmapIndex_KeyKind::try_from(code)?;
    let init = |b: &mut BitmapIndex| {
        b.set_params(&kind);
        Ok(())
    };
    let index = BitmapIndex::read_into_with_init::<_, BitmapIndex>(&io, None, None, &init)?;
    let body_start = payload.len() - index.body().len();
    let rows_at = |offset: i32| -> Result<Vec<i64>, Refused> {
        if offset < 0 {
            return Ok(vec![-1 - offset as i64]);
        }
        if offset as usize >= index.body().len() {
            return Err(refuse(
                "BITMAP_OFFSET_OUT_OF_RANGE",
                format!("bitmap offset {offset} is outside the body"),
            ));
        }
        let sub = BytesReader::from(&payload[body_start + offset as usize..]);
        let bitmap = Roaring32::read_into::<_, Roaring32>(&sub, None, None)?;
        bitmap_values(&bitmap)
    };
    let version = if *index.version() == paimon_layouts::bitmap_index::BitmapIndex_Version::V1 {
        1
    } else {
        2
    };
    let mut entries = Vec::new();
    if version == 1 {
        for e in index.entries_v1().iter() {
            entries.push((bitmap_key(&e.key())?, *e.ofs_bitmap()));
        }
    } else {
        for block in index.index_blocks().blocks().iter() {
            for e in block.entries().iter() {
                entries.push((bitmap_key(&e.key())?, *e.ofs_bitmap()));
            }
        }
    }
    let mut groups = Vec::new();
    for (key, offset) in entries {
        groups.push((Some(key), rows_at(offset)?));
    }
    if *index.has_nulls() != 0 {
        groups.push((None, rows_at(*index.ofs_null_bitmap())?));
    }
    let num_rows = *index.num_rows() as i64;
    let covered: i64 = groups.iter().map(|(_, rows)| rows.len() as i64).sum();
    if covered != num_rows {
        let msg = format!("the row count says {num_rows} rows, the bitmaps cover {covered}");
        return Err(refuse("BITMAP_ROWS_NOT_COVERED", msg));
    }
    let mut out = vec![Value::Null; num_rows as usize];
    let mut seen = vec![false; num_rows as usize];
    for (key, rows) in groups {
        let value = match &key {
            Some(k) => to_json(t, k)?,
            None => Value::Null,
        };
        for r in rows {
            if r >= num_rows || seen[r as usize] {
                return Err(refuse(
                    "BITMAP_ROW_OUT_OF_RANGE",
                    format!("row {r} cannot hold another value"),
                ));
            }
            out[r as usize] = value.clone();
            seen[r as usize] = true;
        }
    }
    Ok(json!({"version": version, "row_values": out}))
}

/// One half of a BSI: each row's value, the half's minimum plus the bits of its slices.
fn bsi_half(half: &Bsi_Half, sign: i64, found: &mut BTreeMap<i64, i64>) -> Result<(), Refused> {
    let rows = bitmap_values(&half.existence())?;
    let mut value: HashMap<i64, i64> = rows.iter().map(|&r| (r, *half.min())).collect();
    for (i, slice) in half.slices().iter().enumerate() {
        for r in bitmap_values(slice)? {
            if let Some(v) = value.get_mut(&r) {
                *v = v.wrapping_add(1i64.wrapping_shl(i as u32));
            }
        }
    }
    for r in rows {
        found.insert(r, sign.wrapping_mul(value[&r]));
    }
    Ok(())
}

fn bsi(payload: &[u8], t: &ColumnType) -> Result<Value, Refused> {
    if !BSI_TYPES.contains(&t.root.as_str()) {
        return Err(refuse("", format!("no bsi index for {}", t.root)));
    }
    let io = BytesReader::from(payload);
    let index = Bsi::read_into::<_, Bsi>(&io, None, None)?;
    let mut found = BTreeMap::new();
    if *index.has_positive() != 0 {
        bsi_half(&index.positive(), 1, &mut found)?;
    }
    if *index.has_negative() != 0 {
        bsi_half(&index.negative(), -1, &mut found)?;
    }
    let num_rows = *index.num_rows() as i64;
    if found.keys().next_back().is_some_and(|&r| r >= num_rows) {
        return Err(refuse(
            "BSI_ROW_OUT_OF_RANGE",
            format!("a row is not below the row count {num_rows}"),
        ));
    }
    let mut out = Vec::with_capacity(num_rows.max(0) as usize);
    for r in 0..num_rows {
        out.push(match found.get(&r) {
            Some(v) => to_json(t, &Key::Int(*v))?,
            None => Value::Null,
        });
    }
    Ok(json!({"row_values": out}))
}

/// A range-bitmap: the dictionary's keys in code order, each row's code from the code slices.
fn range_bitmap(payload: &[u8], t: &ColumnType) -> Result<Value, Refused> {
    let code = kind_code(t, true).ok_or_else(|| refuse("", format!("no range-bitmap index for {}", t.root)))?;
    let io = BytesReader::from(payload);
    let kind = TypedKey_Kind::try_from(code)?;
    let init = |b: &mut RangeBitmap| {
        b.set_params(&kind);
        Ok(())
    };
    let index = RangeBitmap::read_into_with_init::<_, RangeBitmap>(&io, None, None, &init)?;
    let mut values = Vec::new();
    for chunk in index.dictionary().chunks().chunks().iter() {
        values.push(to_json(t, &typed_key(&chunk.first_key())?)?);
        for listed in chunk.block()?.keys().keys().iter() {
            values.push(to_json(t, &typed_key(&listed.key())?)?);
        }
    }
    let codes = index.codes();
    let rows = bitmap_values(&codes.existence())?;
    let mut code_of: BTreeMap<i64, i64> = rows.iter().map(|&r| (r, 0)).collect();
    for (i, slice) in codes.slices().slices().iter().enumerate() {
        for r in bitmap_values(&slice.bitmap())? {
            let Some(c) = code_of.get_mut(&r) else {
                return Err(refuse(
                    "RANGE_BITMAP_SLICE_OUTSIDE_EXISTENCE",
                    "a slice holds rows the existence bitmap does not".into(),
                ));
            };
            *c += 1i64 << i.min(31);
        }
    }
    let num_rows = *index.header().num_rows() as i64;
    if rows.last().is_some_and(|&r| r >= num_rows) {
        return Err(refuse(
            "RANGE_BITMAP_TOO_MANY_ROWS_TO_LIST",
            format!("a row is not below the row count {num_rows}"),
        ));
    }
    let mut out = vec![Value::Null; num_rows.max(0) as usize];
    for (r, c) in code_of {
        out[r as usize] = values
            .get(c as usize)
            .cloned()
            .ok_or_else(|| refuse("", format!("code {c} is not in the dictionary")))?;
    }
    Ok(json!({"row_values": out}))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|x| format!("{x:02x}")).collect()
}

fn index_entry(entry: &FileIndex_IndexEntry, t: Option<&ColumnType>) -> Result<Value, Refused> {
    let name = entry.index_type().value()?.clone();
    let mut out = Map::new();
    out.insert("index_type".into(), json!(name));
    out.insert("offset".into(), json!(*entry.ofs_payload()));
    out.insert("length".into(), json!(*entry.len_payload()));
    if *entry.is_empty()? {
        out.insert("empty".into(), json!(true));
        return Ok(Value::Object(out));
    }
    let payload = entry.payload()?;
    let (key, value) = match (&*payload, name.as_str(), t) {
        (Some(FileIndex_IndexEntry_Payload::BloomFilter(b)), _, _) => {
            let bits = hex(&b.bits());
            let bloom =
                json!({"num_hash_functions": *b.num_hash_functions(), "num_bits": *b.num_bits()?, "bits": bits});
            ("payload", bloom)
        }
        (Some(FileIndex_IndexEntry_Payload::Bytes(bytes)), "bitmap", Some(t)) => ("payload", bitmap(bytes, t)?),
        (Some(FileIndex_IndexEntry_Payload::Bytes(bytes)), "bsi", Some(t)) => ("payload", bsi(bytes, t)?),
        (Some(FileIndex_IndexEntry_Payload::Bytes(bytes)), "range-bitmap", Some(t)) => {
            ("payload", range_bitmap(bytes, t)?)
        }
        (Some(FileIndex_IndexEntry_Payload::Bytes(bytes)), _, _) => ("payload_hex", json!(hex(bytes))),
        (None, _, _) => return Err(refuse("", "an entry without a payload".into())),
    };
    out.insert(key.into(), value);
    Ok(Value::Object(out))
}

/// The case of a file-index container; `types` is the request's (its `columns`: name and type of each).
pub fn decode(data: Vec<u8>, types: &Value) -> Result<Value, Refused> {
    let mut column_types = HashMap::new();
    for c in types["columns"].as_array().into_iter().flatten() {
        if let (Some(name), Some(t)) = (c["name"].as_str(), c["type"].as_str()) {
            column_types.insert(name.to_string(), (t.to_string(), parse_type(t)?));
        }
    }
    let io = BytesReader::from(data);
    let file = FileIndex::read_into::<_, FileIndex>(&io, None, None)?;
    let mut spans = Vec::new();
    for col in file.columns().iter() {
        for e in col.indexes().iter() {
            if !*e.is_empty()? && *e.len_payload() > 0 {
                spans.push((
                    *e.ofs_payload() as i64,
                    *e.ofs_payload() as i64 + *e.len_payload() as i64,
                ));
            }
        }
    }
    spans.sort();
    if let Some(w) = spans.windows(2).find(|w| w[1].0 < w[0].1) {
        let msg = format!(
            "payload at {} starts inside the payload at {}..{}",
            w[1].0, w[0].0, w[0].1
        );
        return Err(refuse("FILE_INDEX_PAYLOADS_OVERLAP", msg));
    }
    let mut columns = Vec::new();
    for col in file.columns().iter() {
        let name = col.name().value()?.clone();
        let mut column = Map::new();
        column.insert("name".into(), json!(name));
        let t = column_types.get(&name);
        if let Some((text, _)) = t {
            column.insert("type".into(), json!(text));
        }
        let mut indexes = Vec::new();
        for e in col.indexes().iter() {
            indexes.push(index_entry(e, t.map(|(_, t)| t))?);
        }
        column.insert("indexes".into(), Value::Array(indexes));
        columns.push(Value::Object(column));
    }
    Ok(json!({"case_format": 1, "kind": "file-index", "version": 1, "columns": columns}))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_print_as_python_does() {
        assert_eq!(decimal_text(1234, 2), "12.34");
        assert_eq!(decimal_text(-5, 2), "-0.05");
        assert_eq!(decimal_text(0, 2), "0.00");
        assert_eq!(decimal_text(7, 0), "7");
        assert_eq!(decimal_text(1, 10), "1E-10");
    }

    #[test]
    fn dates_are_civil() {
        assert_eq!(iso_date(0).ok(), Some("1970-01-01".to_string()));
        assert_eq!(iso_date(19782).ok(), Some("2024-02-29".to_string()));
        assert_eq!(iso_date(-1).ok(), Some("1969-12-31".to_string()));
    }
}
