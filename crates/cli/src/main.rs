//! The `iomark` binary.

fn main() {}
