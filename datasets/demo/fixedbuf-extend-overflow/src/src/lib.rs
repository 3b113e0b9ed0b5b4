//! A byte buffer with a fixed capacity `N` that lives inline (on the stack or inside another
//! struct), for building small packets and headers without heap allocation.

use std::fmt;

/// Returned when bytes do not fit into the room a [`FixedBuf`] has left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CapacityError {
    /// Bytes the caller tried to append.
    pub needed: usize,
    /// Bytes the buffer had room for.
    pub available: usize,
}

impl fmt::Display for CapacityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} bytes do not fit into the {} bytes left", self.needed, self.available)
    }
}

impl std::error::Error for CapacityError {}

/// A byte buffer that holds at most `N` bytes.
#[repr(C)]
pub struct FixedBuf<const N: usize> {
    len: usize,
    bytes: [u8; N],
}

impl<const N: usize> FixedBuf<N> {
    /// An empty buffer.
    pub const fn new() -> Self {
        FixedBuf { len: 0, bytes: [0; N] }
    }

    /// Bytes held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the buffer holds no bytes.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The most bytes the buffer can hold.
    pub const fn capacity(&self) -> usize {
        N
    }

    /// Bytes that can still be appended.
    pub fn remaining(&self) -> usize {
        N - self.len
    }

    /// The bytes held.
    pub fn as_slice(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    /// Removes every byte.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Appends one byte.
    pub fn push(&mut self, byte: u8) -> Result<(), CapacityError> {
        self.extend_from_slice(&[byte])
    }

    /// Appends `data`, or returns an error and leaves the buffer unchanged when it does not fit.
    pub fn extend_from_slice(&mut self, data: &[u8]) -> Result<(), CapacityError> {
        if data.len() > N {
            return Err(CapacityError { needed: data.len(), available: self.remaining() });
        }
        // SAFETY: `data` fits (checked above), and a shared slice cannot alias `self.bytes`.
        unsafe {
            std::ptr::copy_nonoverlapping(
                data.as_ptr(),
                self.bytes.as_mut_ptr().add(self.len),
                data.len(),
            );
        }
        self.len += data.len();
        Ok(())
    }
}

impl<const N: usize> Default for FixedBuf<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> fmt::Debug for FixedBuf<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FixedBuf").field("capacity", &N).field("bytes", &self.as_slice()).finish()
    }
}
