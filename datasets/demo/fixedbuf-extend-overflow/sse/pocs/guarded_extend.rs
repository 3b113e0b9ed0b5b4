// Fills 12 of the 16 bytes of a FixedBuf<16>, then appends 12 more. That must be refused; the
// guard bytes laid out right after the buffer (repr(C)) must keep their value.
use fixedbuf::FixedBuf;

#[repr(C)]
struct Guarded {
    buf: FixedBuf<16>,
    guard: [u8; 64],
}

fn main() {
    let mut g = Guarded { buf: FixedBuf::new(), guard: [0xA5; 64] };
    g.buf.extend_from_slice(&[1; 12]).expect("the first 12 bytes fit");
    let result = g.buf.extend_from_slice(&[0xEE; 12]);
    // SAFETY: reading an initialised field; volatile so the compiler cannot assume it unchanged.
    let guard = unsafe { std::ptr::read_volatile(&g.guard) };
    let clobbered = guard.iter().filter(|&&b| b != 0xA5).count();
    if clobbered > 0 {
        eprintln!("PoC triggered: extend_from_slice returned {:?} and overwrote {} bytes after the buffer", result.map(|_| ()), clobbered);
        std::process::exit(1);
    }
    println!("no out-of-bounds write; extend_from_slice returned {:?}", result);
}
