//! The Kaitai Struct runtime the generated Rust parsers of `paimon-layouts` compile against.
//!
//! kaitai-struct-compiler 0.11 writes Rust that expects a runtime crate named `kaitai` with this API
//! (`KStruct`, `KStream`, `BytesReader`, `OptRc`, `SharedType`, `KError`, ...); no release of that runtime
//! is on crates.io, so the kit carries its own, written for these parsers. Its rules follow the other
//! languages' runtimes: a read past the end is an error, a seek past it is not, a struct's stream is
//! the same stream as its parent's (a clone shares the position), strings decode strictly.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::fmt;
use std::ops::Deref;
use std::rc::{Rc, Weak};

/// Which `valid` check of a spec failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ValidationKind {
    NotEqual,
    LessThan,
    GreaterThan,
    NotAnyOf,
    NotInEnum,
    Expr,
}

/// A `valid` check that failed, with the spec path of its field (`/types/x/seq/3`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationFailedError {
    pub kind: ValidationKind,
    pub src_path: String,
}

/// Every way a parse can fail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KError {
    /// A read of `requested` bytes at `pos` where only `available` are left.
    Eof {
        requested: usize,
        available: usize,
        pos: usize,
    },
    /// A seek to a negative position.
    SeekOutOfRange {
        pos: usize,
        size: usize,
    },
    ValidationFailed(ValidationFailedError),
    /// A value that does not fit the type the spec converts it to.
    CastError,
    /// `first`, `last`, `min` or `max` of an empty list.
    EmptyIterator,
    /// A `process:` routine or a string decoding refused the bytes.
    BytesDecodingError {
        msg: String,
    },
    UnknownEncoding {
        name: String,
    },
    /// A terminator that never comes, where the spec asks for it.
    NoTerminatorFound,
    /// A `_root` or `_parent` that is not (or no longer) there.
    MissingParent,
    /// A parameter the caller gave a root that does not fit it.
    Parameter {
        msg: String,
    },
}

pub type KResult<T> = Result<T, KError>;

impl fmt::Display for KError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KError::Eof {
                requested,
                available,
                pos,
            } => {
                write!(
                    f,
                    "end of stream: {requested} bytes requested at {pos}, {available} left"
                )
            }
            KError::SeekOutOfRange { pos, size } => write!(f, "seek to {pos} in a stream of {size} bytes"),
            KError::ValidationFailed(e) => write!(f, "validation {:?} failed at {}", e.kind, e.src_path),
            KError::CastError => write!(f, "a value does not fit its type"),
            KError::EmptyIterator => write!(f, "first, last, min or max of an empty list"),
            KError::BytesDecodingError { msg } => write!(f, "{msg}"),
            KError::UnknownEncoding { name } => write!(f, "unknown encoding {name}"),
            KError::NoTerminatorFound => write!(f, "no terminator found"),
            KError::MissingParent => write!(f, "a root or parent is missing"),
            KError::Parameter { msg } => write!(f, "parameter: {msg}"),
        }
    }
}

impl std::error::Error for KError {}

impl From<std::num::TryFromIntError> for KError {
    fn from(_: std::num::TryFromIntError) -> Self {
        KError::CastError
    }
}

impl From<std::convert::Infallible> for KError {
    fn from(_: std::convert::Infallible) -> Self {
        KError::CastError
    }
}

/// A shared reference to a parsed struct that may be empty (a field not read yet, or left out by its `if`).
pub struct OptRc<T>(Option<Rc<T>>);

impl<T> OptRc<T> {
    pub fn new(rc: &Rc<T>) -> Self {
        OptRc(Some(rc.clone()))
    }

    pub fn is_none(&self) -> bool {
        self.0.is_none()
    }

    /// The struct; panics when empty, as the generated code only asks for structs it has read.
    pub fn get(&self) -> Rc<T> {
        self.0.clone().expect("an empty OptRc")
    }

    pub fn as_rc(&self) -> Option<&Rc<T>> {
        self.0.as_ref()
    }
}

impl<T> Default for OptRc<T> {
    fn default() -> Self {
        OptRc(None)
    }
}

impl<T> Clone for OptRc<T> {
    fn clone(&self) -> Self {
        OptRc(self.0.clone())
    }
}

impl<T: fmt::Debug> fmt::Debug for OptRc<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Some(rc) => rc.fmt(f),
            None => write!(f, "None"),
        }
    }
}

impl<T> From<Rc<T>> for OptRc<T> {
    fn from(rc: Rc<T>) -> Self {
        OptRc(Some(rc))
    }
}

impl<T> Deref for OptRc<T> {
    type Target = T;

    fn deref(&self) -> &T {
        self.0.as_deref().expect("an empty OptRc")
    }
}

/// A weak link to a struct up the tree (`_root`, `_parent`, `_self`): no cycle keeps a tree alive.
pub struct SharedType<T>(RefCell<Weak<T>>);

impl<T> SharedType<T> {
    pub fn new(rc: Rc<T>) -> Self {
        SharedType(RefCell::new(Rc::downgrade(&rc)))
    }

    pub fn empty() -> Self {
        SharedType(RefCell::new(Weak::new()))
    }

    pub fn get_value(&self) -> &RefCell<Weak<T>> {
        &self.0
    }

    /// The struct, or `MissingParent` when there is none (the parent of a root).
    pub fn get(&self) -> KResult<OptRc<T>> {
        self.0.borrow().upgrade().map(OptRc::from).ok_or(KError::MissingParent)
    }

    /// Link to the struct `value` holds; an error or an empty value leaves the link empty.
    pub fn set(&self, value: KResult<OptRc<T>>) {
        *self.0.borrow_mut() = match value {
            Ok(OptRc(Some(rc))) => Rc::downgrade(&rc),
            _ => Weak::new(),
        };
    }
}

impl<T> Default for SharedType<T> {
    fn default() -> Self {
        SharedType::empty()
    }
}

impl<T> Clone for SharedType<T> {
    fn clone(&self) -> Self {
        SharedType(RefCell::new(self.0.borrow().clone()))
    }
}

impl<T> fmt::Debug for SharedType<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SharedType")
    }
}

/// A parsed struct: `read` fills one in from a stream; `read_into` makes, links and reads a new one.
pub trait KStruct: Default {
    type Root: KStruct;
    type Parent: KStruct;

    fn read<S: KStream>(
        self_rc: &OptRc<Self>,
        _io: &S,
        _root: SharedType<Self::Root>,
        _parent: SharedType<Self::Parent>,
    ) -> KResult<()>;

    /// A new `T` read from `io`; with no `root` the new struct is its own root.
    fn read_into<S: KStream, T: KStruct + Any>(
        io: &S,
        root: Option<SharedType<T::Root>>,
        parent: Option<SharedType<T::Parent>>,
    ) -> KResult<OptRc<T>> {
        Self::read_into_with_init(io, root, parent, &|_: &mut T| Ok(()))
    }

    /// As `read_into`, with `init` setting the new struct's parameters before it is read.
    fn read_into_with_init<S: KStream, T: KStruct + Any>(
        io: &S,
        root: Option<SharedType<T::Root>>,
        parent: Option<SharedType<T::Parent>>,
        init: &dyn Fn(&mut T) -> KResult<()>,
    ) -> KResult<OptRc<T>> {
        let mut t = T::default();
        init(&mut t)?;
        let rc = Rc::new(t);
        let root = match root {
            Some(root) => root,
            None => {
                let any: Rc<dyn Any> = rc.clone();
                match any.downcast::<T::Root>() {
                    Ok(own) => SharedType::new(own),
                    Err(_) => SharedType::empty(),
                }
            }
        };
        let opt = OptRc::from(rc);
        T::read(&opt, io, root, parent.unwrap_or_default())?;
        Ok(opt)
    }
}

/// The parent type of a struct that has none.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct KStructUnit;

impl KStruct for KStructUnit {
    type Root = KStructUnit;
    type Parent = KStructUnit;

    fn read<S: KStream>(
        _self_rc: &OptRc<Self>,
        _io: &S,
        _root: SharedType<Self::Root>,
        _parent: SharedType<Self::Parent>,
    ) -> KResult<()> {
        Ok(())
    }
}

/// A stream the generated parsers read from.
pub trait KStream {
    /// The same stream (sharing its position), as a struct keeps it.
    fn clone(&self) -> BytesReader;
    fn size(&self) -> usize;
    fn pos(&self) -> usize;
    fn is_eof(&self) -> bool;
    fn seek(&self, pos: usize) -> KResult<()>;
    fn read_bytes(&self, len: usize) -> KResult<Vec<u8>>;
    fn read_bytes_full(&self) -> KResult<Vec<u8>>;
    fn read_bytes_term(&self, term: u8, include: bool, consume: bool, eos_error: bool) -> KResult<Vec<u8>>;

    fn read_u1(&self) -> KResult<u8>;
    fn read_s1(&self) -> KResult<i8>;
    fn read_u2le(&self) -> KResult<u16>;
    fn read_u2be(&self) -> KResult<u16>;
    fn read_s2le(&self) -> KResult<i16>;
    fn read_s2be(&self) -> KResult<i16>;
    fn read_u4le(&self) -> KResult<u32>;
    fn read_u4be(&self) -> KResult<u32>;
    fn read_s4le(&self) -> KResult<i32>;
    fn read_s4be(&self) -> KResult<i32>;
    fn read_u8le(&self) -> KResult<u64>;
    fn read_u8be(&self) -> KResult<u64>;
    fn read_s8le(&self) -> KResult<i64>;
    fn read_s8be(&self) -> KResult<i64>;
    fn read_f4le(&self) -> KResult<f32>;
    fn read_f4be(&self) -> KResult<f32>;
    fn read_f8le(&self) -> KResult<f64>;
    fn read_f8be(&self) -> KResult<f64>;
}

/// A stream over bytes in memory. Clones share the bytes and the position.
#[derive(Default)]
pub struct BytesReader {
    bytes: Rc<Vec<u8>>,
    pos: Rc<Cell<usize>>,
}

impl BytesReader {
    pub fn new(bytes: Vec<u8>) -> Self {
        BytesReader {
            bytes: Rc::new(bytes),
            pos: Rc::new(Cell::new(0)),
        }
    }

    /// The same stream, sharing its position.
    #[allow(clippy::should_implement_trait)]
    pub fn clone(&self) -> BytesReader {
        BytesReader {
            bytes: self.bytes.clone(),
            pos: self.pos.clone(),
        }
    }

    fn take<const N: usize>(&self) -> KResult<[u8; N]> {
        let pos = self.pos.get();
        let available = self.bytes.len().saturating_sub(pos);
        if available < N {
            return Err(KError::Eof {
                requested: N,
                available,
                pos,
            });
        }
        let mut out = [0u8; N];
        out.copy_from_slice(&self.bytes[pos..pos + N]);
        self.pos.set(pos + N);
        Ok(out)
    }
}

impl Clone for BytesReader {
    fn clone(&self) -> Self {
        BytesReader::clone(self)
    }
}

impl fmt::Debug for BytesReader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "BytesReader {{ pos: {}, size: {} }}",
            self.pos.get(),
            self.bytes.len()
        )
    }
}

impl From<Vec<u8>> for BytesReader {
    fn from(bytes: Vec<u8>) -> Self {
        BytesReader::new(bytes)
    }
}

impl From<&[u8]> for BytesReader {
    fn from(bytes: &[u8]) -> Self {
        BytesReader::new(bytes.to_vec())
    }
}

macro_rules! read_number {
    ($($name:ident: $t:ty = $from:ident;)*) => {
        $(fn $name(&self) -> KResult<$t> {
            Ok(<$t>::$from(self.take::<{ std::mem::size_of::<$t>() }>()?))
        })*
    };
}

impl KStream for BytesReader {
    fn clone(&self) -> BytesReader {
        BytesReader::clone(self)
    }

    fn size(&self) -> usize {
        self.bytes.len()
    }

    fn pos(&self) -> usize {
        self.pos.get()
    }

    fn is_eof(&self) -> bool {
        self.pos.get() >= self.bytes.len()
    }

    /// As Python's and Go's streams: a seek past the end is allowed (the next read fails); a position that
    /// was negative before the generated code cast it to usize is not.
    fn seek(&self, pos: usize) -> KResult<()> {
        if pos > isize::MAX as usize {
            return Err(KError::SeekOutOfRange {
                pos,
                size: self.bytes.len(),
            });
        }
        self.pos.set(pos);
        Ok(())
    }

    fn read_bytes(&self, len: usize) -> KResult<Vec<u8>> {
        let pos = self.pos.get();
        let available = self.bytes.len().saturating_sub(pos);
        if available < len {
            return Err(KError::Eof {
                requested: len,
                available,
                pos,
            });
        }
        self.pos.set(pos + len);
        Ok(self.bytes[pos..pos + len].to_vec())
    }

    fn read_bytes_full(&self) -> KResult<Vec<u8>> {
        let pos = self.pos.get().min(self.bytes.len());
        self.pos.set(self.bytes.len());
        Ok(self.bytes[pos..].to_vec())
    }

    fn read_bytes_term(&self, term: u8, include: bool, consume: bool, eos_error: bool) -> KResult<Vec<u8>> {
        let pos = self.pos.get().min(self.bytes.len());
        let rest = &self.bytes[pos..];
        match rest.iter().position(|&b| b == term) {
            Some(i) => {
                let end = if include { i + 1 } else { i };
                self.pos.set(pos + if consume { i + 1 } else { i });
                Ok(rest[..end].to_vec())
            }
            None if eos_error => Err(KError::NoTerminatorFound),
            None => {
                self.pos.set(self.bytes.len());
                Ok(rest.to_vec())
            }
        }
    }

    read_number! {
        read_u1: u8 = from_le_bytes;
        read_s1: i8 = from_le_bytes;
        read_u2le: u16 = from_le_bytes;
        read_u2be: u16 = from_be_bytes;
        read_s2le: i16 = from_le_bytes;
        read_s2be: i16 = from_be_bytes;
        read_u4le: u32 = from_le_bytes;
        read_u4be: u32 = from_be_bytes;
        read_s4le: i32 = from_le_bytes;
        read_s4be: i32 = from_be_bytes;
        read_u8le: u64 = from_le_bytes;
        read_u8be: u64 = from_be_bytes;
        read_s8le: i64 = from_le_bytes;
        read_s8be: i64 = from_be_bytes;
        read_f4le: f32 = from_le_bytes;
        read_f4be: f32 = from_be_bytes;
        read_f8le: f64 = from_le_bytes;
        read_f8be: f64 = from_be_bytes;
    }
}

/// Kaitai's `%`: the result has the sign of the divisor (Python's modulo), not of the dividend.
pub fn modulo(a: i64, b: i64) -> i64 {
    let r = a.wrapping_rem(b);
    if r != 0 && ((r < 0) != (b < 0)) {
        r + b
    } else {
        r
    }
}

/// Bytes as a string of `encoding`; malformed bytes are an error, never replaced.
pub fn bytes_to_str(bytes: &Vec<u8>, encoding: &str) -> KResult<String> {
    match encoding.to_ascii_uppercase().replace('_', "-").as_str() {
        "UTF-8" | "UTF8" => String::from_utf8(bytes.clone()).map_err(|e| KError::BytesDecodingError {
            msg: format!("malformed UTF-8: {e}"),
        }),
        "ASCII" | "US-ASCII" if bytes.is_ascii() => Ok(bytes.iter().map(|&b| b as char).collect()),
        "ASCII" | "US-ASCII" => Err(KError::BytesDecodingError {
            msg: "a byte outside ASCII".to_string(),
        }),
        "ISO-8859-1" | "LATIN1" => Ok(bytes.iter().map(|&b| b as char).collect()),
        _ => Err(KError::UnknownEncoding {
            name: encoding.to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_little_and_big_endian_and_stops_at_the_end() {
        let r = BytesReader::new(vec![1, 2, 3, 4, 5]);
        assert_eq!(r.read_u2le().unwrap(), 0x0201);
        assert_eq!(r.read_u2be().unwrap(), 0x0304);
        assert_eq!(
            r.read_u2le(),
            Err(KError::Eof {
                requested: 2,
                available: 1,
                pos: 4
            })
        );
        assert_eq!(r.pos(), 4);
    }

    #[test]
    fn clones_share_the_position() {
        let r = BytesReader::new(vec![1, 2, 3]);
        let c = KStream::clone(&r);
        c.read_u1().unwrap();
        assert_eq!(r.pos(), 1);
    }

    #[test]
    fn modulo_takes_the_divisor_sign() {
        assert_eq!(modulo(-1, 8), 7);
        assert_eq!(modulo(9, 8), 1);
        assert_eq!(modulo(1, -8), -7);
    }

    #[test]
    fn strings_decode_strictly() {
        assert!(bytes_to_str(&vec![0xff], "UTF-8").is_err());
        assert_eq!(bytes_to_str(&b"ok".to_vec(), "UTF-8").unwrap(), "ok");
    }
}
