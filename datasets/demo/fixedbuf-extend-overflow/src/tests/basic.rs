use fixedbuf::{CapacityError, FixedBuf};

#[test]
fn starts_empty() {
    let buf = FixedBuf::<8>::new();
    assert!(buf.is_empty());
    assert_eq!(buf.capacity(), 8);
    assert_eq!(buf.remaining(), 8);
    assert_eq!(buf.as_slice(), b"");
}

#[test]
fn appends_within_capacity() {
    let mut buf = FixedBuf::<8>::new();
    buf.extend_from_slice(b"abc").unwrap();
    buf.push(b'd').unwrap();
    assert_eq!(buf.as_slice(), b"abcd");
    assert_eq!(buf.remaining(), 4);
}

#[test]
fn rejects_a_slice_longer_than_the_capacity() {
    let mut buf = FixedBuf::<4>::new();
    assert_eq!(buf.extend_from_slice(b"hello"), Err(CapacityError { needed: 5, available: 4 }));
    assert!(buf.is_empty());
}

#[test]
fn clear_makes_room_again() {
    let mut buf = FixedBuf::<4>::new();
    buf.extend_from_slice(b"abcd").unwrap();
    buf.clear();
    buf.extend_from_slice(b"wxyz").unwrap();
    assert_eq!(buf.as_slice(), b"wxyz");
}
