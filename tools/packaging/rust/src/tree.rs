//! A parsed file as the language-neutral JSON tree of tree_schema.json, the same form every language's dump
//! prints (the `dump` feature). The impls for the parsed types are generated (tree_impls.rs): each struct
//! gives its schema fields in order, each enum its id, each switch its case. Here: the values' forms and the
//! root parameters' reading.

use kaitai::{KError, KResult, OptRc};
use serde_json::{Map, Value};
use std::cell::Ref;

/// A value with a tree form.
pub trait ToTree {
    fn to_tree(&self) -> KResult<Value>;

    /// A list of these values; bytes (a list of u8) print as {"$bytes": hex}.
    fn list_to_tree(items: &[Self]) -> KResult<Value>
    where
        Self: Sized,
    {
        items
            .iter()
            .map(ToTree::to_tree)
            .collect::<KResult<Vec<_>>>()
            .map(Value::Array)
    }
}

macro_rules! number_to_tree {
    ($($t:ty),*) => {$(
        impl ToTree for $t {
            fn to_tree(&self) -> KResult<Value> {
                Ok(Value::from(*self))
            }
        }
    )*};
}

number_to_tree!(i8, i16, i32, i64, u16, u32, u64, usize, bool);

impl ToTree for u8 {
    fn to_tree(&self) -> KResult<Value> {
        Ok(Value::from(*self))
    }

    fn list_to_tree(items: &[Self]) -> KResult<Value> {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let mut hex = String::with_capacity(items.len() * 2);
        for &b in items {
            hex.push(DIGITS[(b >> 4) as usize] as char);
            hex.push(DIGITS[(b & 15) as usize] as char);
        }
        let mut map = Map::new();
        map.insert("$bytes".to_string(), Value::String(hex));
        Ok(Value::Object(map))
    }
}

impl ToTree for i128 {
    fn to_tree(&self) -> KResult<Value> {
        match i64::try_from(*self) {
            Ok(v) => Ok(Value::from(v)),
            Err(_) => u64::try_from(*self).map(Value::from).map_err(|_| KError::CastError),
        }
    }
}

fn float(f: f64) -> Value {
    if f.is_nan() {
        Value::from("NaN")
    } else if f.is_infinite() {
        Value::from(if f > 0.0 { "Infinity" } else { "-Infinity" })
    } else {
        Value::from(f)
    }
}

impl ToTree for f64 {
    fn to_tree(&self) -> KResult<Value> {
        Ok(float(*self))
    }
}

impl ToTree for f32 {
    fn to_tree(&self) -> KResult<Value> {
        Ok(float(*self as f64))
    }
}

impl ToTree for String {
    fn to_tree(&self) -> KResult<Value> {
        Ok(Value::String(self.clone()))
    }
}

impl<T: ToTree> ToTree for Vec<T> {
    fn to_tree(&self) -> KResult<Value> {
        T::list_to_tree(self)
    }
}

impl<T: ToTree> ToTree for Option<T> {
    fn to_tree(&self) -> KResult<Value> {
        match self {
            Some(v) => v.to_tree(),
            None => Ok(Value::Null),
        }
    }
}

impl<T: ToTree> ToTree for OptRc<T> {
    fn to_tree(&self) -> KResult<Value> {
        match self.as_rc() {
            Some(v) => v.to_tree(),
            None => Ok(Value::Null),
        }
    }
}

/// What an accessor returns: a seq field (`Ref`) or an instance, evaluated now (`KResult<Ref>`).
pub trait Field {
    fn field_tree(self) -> KResult<Value>;
}

impl<T: ToTree> Field for Ref<'_, T> {
    fn field_tree(self) -> KResult<Value> {
        self.to_tree()
    }
}

impl<T: ToTree> Field for KResult<Ref<'_, T>> {
    fn field_tree(self) -> KResult<Value> {
        self?.to_tree()
    }
}

fn parameter(msg: String) -> KError {
    KError::Parameter { msg }
}

/// That a root got as many parameters as its spec takes.
pub fn check_count(params: &[Value], n: usize) -> KResult<()> {
    if params.len() != n {
        return Err(parameter(format!(
            "the spec takes {n} parameters, got {}",
            params.len()
        )));
    }
    Ok(())
}

/// A bytes parameter, given as a hex string.
pub fn bytes_param(v: &Value) -> KResult<Vec<u8>> {
    let hex = v
        .as_str()
        .ok_or_else(|| parameter(format!("{v} is not a hex string")))?;
    if hex.len() % 2 != 0 || !hex.is_ascii() {
        return Err(parameter(format!("{hex} is not a hex string")));
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).map_err(|_| parameter(format!("{hex} is not a hex string"))))
        .collect()
}

/// A boolean parameter.
pub fn bool_param(v: &Value) -> KResult<bool> {
    v.as_bool()
        .ok_or_else(|| parameter(format!("{v} is not true or false")))
}

/// An integer parameter (an enum by its id).
pub fn int_param(v: &Value) -> KResult<i64> {
    v.as_i64().ok_or_else(|| parameter(format!("{v} is not an integer")))
}
