//! The kernel's FUSE protocol, as far as a single-file export speaks it: the `#[repr(C)]`
//! structures, opcodes and flags of `include/uapi/linux/fuse.h` (protocol 7.42, the first
//! with FUSE-over-io_uring).
//!
//! That header is the kernel's documented interface to FUSE servers and is licensed for
//! that use (GPL-2.0 WITH Linux-syscall-note OR BSD-2-Clause); what is taken from it here
//! is its layout, which is a fact of the ABI: field names, order, widths and the values of
//! the constants. No code is translated. Every structure's size is checked at compile time
//! against the size the header gives it, and each is plain data (integers only, no
//! padding), which [`crate::wire`] relies on to read and write them as bytes.

/// The protocol's major version.
pub const KERNEL_VERSION: u32 = 7;
/// The minor version iomark speaks (7.42 added FUSE-over-io_uring).
pub const KERNEL_MINOR_VERSION: u32 = 42;
/// The root directory's node id.
pub const ROOT_ID: u64 = 1;
/// The smallest read buffer `/dev/fuse` accepts.
pub const MIN_READ_BUFFER: usize = 8192;

/// The opcodes of requests (`enum fuse_opcode`).
pub mod op {
    /// Looks a name up in a directory.
    pub const LOOKUP: u32 = 1;
    /// Drops lookups of a node (no reply).
    pub const FORGET: u32 = 2;
    /// A node's attributes.
    pub const GETATTR: u32 = 3;
    /// Changes attributes (the size among them).
    pub const SETATTR: u32 = 4;
    /// Opens a file.
    pub const OPEN: u32 = 14;
    /// Reads from an open file.
    pub const READ: u32 = 15;
    /// Writes to an open file.
    pub const WRITE: u32 = 16;
    /// File system statistics.
    pub const STATFS: u32 = 17;
    /// Closes an open file for good.
    pub const RELEASE: u32 = 18;
    /// Syncs an open file.
    pub const FSYNC: u32 = 20;
    /// A `close` of a file descriptor.
    pub const FLUSH: u32 = 25;
    /// The first request of a connection.
    pub const INIT: u32 = 26;
    /// Opens a directory.
    pub const OPENDIR: u32 = 27;
    /// Reads directory entries.
    pub const READDIR: u32 = 28;
    /// Closes a directory.
    pub const RELEASEDIR: u32 = 29;
    /// Asks to interrupt a request in progress (no reply needed).
    pub const INTERRUPT: u32 = 36;
    /// The last request of a connection.
    pub const DESTROY: u32 = 38;
    /// Drops lookups of several nodes (no reply).
    pub const BATCH_FORGET: u32 = 42;
    /// Allocates or punches a range.
    pub const FALLOCATE: u32 = 43;
    /// Reads directory entries with their attributes.
    pub const READDIRPLUS: u32 = 44;
}

/// INIT flags (`flags`, and `flags2` for bits 32 and up, shifted down).
pub mod init {
    /// Asynchronous read requests.
    pub const ASYNC_READ: u64 = 1 << 0;
    /// Writes larger than 4 KiB.
    pub const BIG_WRITES: u64 = 1 << 5;
    /// Asynchronous direct I/O submission.
    pub const ASYNC_DIO: u64 = 1 << 15;
    /// Parallel lookups and readdir.
    pub const PARALLEL_DIROPS: u64 = 1 << 18;
    /// `max_pages` in the reply is valid.
    pub const MAX_PAGES: u64 = 1 << 22;
    /// The extended INIT request (`flags2`).
    pub const INIT_EXT: u64 = 1 << 30;
    /// Shared mmap of files opened with `FOPEN_DIRECT_IO`.
    pub const DIRECT_IO_ALLOW_MMAP: u64 = 1 << 36;
    /// The server takes requests over io_uring.
    pub const OVER_IO_URING: u64 = 1 << 41;
}

/// Flags of an OPEN reply.
pub mod fopen {
    /// Bypass the page cache for this open file.
    pub const DIRECT_IO: u32 = 1 << 0;
    /// Concurrent direct writes on the same inode.
    pub const PARALLEL_DIRECT_WRITES: u32 = 1 << 6;
}

/// `fuse_setattr_in.valid`: the size is to be set.
pub const FATTR_SIZE: u32 = 1 << 3;

/// `struct fuse_in_header`: the start of every request.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct InHeader {
    /// Length of the whole request.
    pub len: u32,
    /// What is asked ([`op`]).
    pub opcode: u32,
    /// The request's id, echoed in the reply.
    pub unique: u64,
    /// The node the request is about.
    pub nodeid: u64,
    /// The caller's user id.
    pub uid: u32,
    /// The caller's group id.
    pub gid: u32,
    /// The caller's process id.
    pub pid: u32,
    /// Length of extensions, in 8-byte units.
    pub total_extlen: u16,
    /// Unused.
    pub padding: u16,
}

/// `struct fuse_out_header`: the start of every reply.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OutHeader {
    /// Length of the whole reply.
    pub len: u32,
    /// 0, or a negative errno.
    pub error: i32,
    /// The request's id.
    pub unique: u64,
}

/// `struct fuse_attr`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Attr {
    /// Inode number.
    pub ino: u64,
    /// Size in bytes.
    pub size: u64,
    /// 512-byte blocks.
    pub blocks: u64,
    /// Access time, seconds.
    pub atime: u64,
    /// Modification time, seconds.
    pub mtime: u64,
    /// Change time, seconds.
    pub ctime: u64,
    /// Access time, nanoseconds.
    pub atimensec: u32,
    /// Modification time, nanoseconds.
    pub mtimensec: u32,
    /// Change time, nanoseconds.
    pub ctimensec: u32,
    /// Type and permissions.
    pub mode: u32,
    /// Link count.
    pub nlink: u32,
    /// Owner.
    pub uid: u32,
    /// Group.
    pub gid: u32,
    /// Device number (none here).
    pub rdev: u32,
    /// Preferred I/O size.
    pub blksize: u32,
    /// `FUSE_ATTR_*` flags.
    pub flags: u32,
}

/// `struct fuse_entry_out`: a LOOKUP reply.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EntryOut {
    /// The node id.
    pub nodeid: u64,
    /// The node's generation.
    pub generation: u64,
    /// How long the name may be cached, seconds.
    pub entry_valid: u64,
    /// How long the attributes may be cached, seconds.
    pub attr_valid: u64,
    /// Nanoseconds of `entry_valid`.
    pub entry_valid_nsec: u32,
    /// Nanoseconds of `attr_valid`.
    pub attr_valid_nsec: u32,
    /// The attributes.
    pub attr: Attr,
}

/// `struct fuse_attr_out`: a GETATTR or SETATTR reply.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AttrOut {
    /// How long the attributes may be cached, seconds.
    pub attr_valid: u64,
    /// Nanoseconds of `attr_valid`.
    pub attr_valid_nsec: u32,
    /// Unused.
    pub dummy: u32,
    /// The attributes.
    pub attr: Attr,
}

/// `struct fuse_setattr_in`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SetattrIn {
    /// Which fields are set (`FATTR_*`).
    pub valid: u32,
    /// Unused.
    pub padding: u32,
    /// File handle.
    pub fh: u64,
    /// New size.
    pub size: u64,
    /// Lock owner.
    pub lock_owner: u64,
    /// New access time.
    pub atime: u64,
    /// New modification time.
    pub mtime: u64,
    /// New change time.
    pub ctime: u64,
    /// Nanoseconds of `atime`.
    pub atimensec: u32,
    /// Nanoseconds of `mtime`.
    pub mtimensec: u32,
    /// Nanoseconds of `ctime`.
    pub ctimensec: u32,
    /// New mode.
    pub mode: u32,
    /// Unused.
    pub unused4: u32,
    /// New owner.
    pub uid: u32,
    /// New group.
    pub gid: u32,
    /// Unused.
    pub unused5: u32,
}

/// `struct fuse_open_in` (OPEN and OPENDIR).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OpenIn {
    /// `open(2)` flags.
    pub flags: u32,
    /// `FUSE_OPEN_*` flags.
    pub open_flags: u32,
}

/// `struct fuse_open_out`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OpenOut {
    /// File handle.
    pub fh: u64,
    /// `FOPEN_*` flags.
    pub open_flags: u32,
    /// Passthrough backing id (unused).
    pub backing_id: i32,
}

/// `struct fuse_read_in` (READ, READDIR, READDIRPLUS).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReadIn {
    /// File handle.
    pub fh: u64,
    /// Where to read.
    pub offset: u64,
    /// How much to read.
    pub size: u32,
    /// `FUSE_READ_*` flags.
    pub read_flags: u32,
    /// Lock owner.
    pub lock_owner: u64,
    /// `open(2)` flags.
    pub flags: u32,
    /// Unused.
    pub padding: u32,
}

/// `struct fuse_write_in`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WriteIn {
    /// File handle.
    pub fh: u64,
    /// Where to write.
    pub offset: u64,
    /// How much to write.
    pub size: u32,
    /// `FUSE_WRITE_*` flags.
    pub write_flags: u32,
    /// Lock owner.
    pub lock_owner: u64,
    /// `open(2)` flags.
    pub flags: u32,
    /// Unused.
    pub padding: u32,
}

/// `struct fuse_write_out`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WriteOut {
    /// Bytes written.
    pub size: u32,
    /// Unused.
    pub padding: u32,
}

/// `struct fuse_fallocate_in`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FallocateIn {
    /// File handle.
    pub fh: u64,
    /// Start of the range.
    pub offset: u64,
    /// Length of the range.
    pub length: u64,
    /// `fallocate(2)` mode.
    pub mode: u32,
    /// Unused.
    pub padding: u32,
}

/// `struct fuse_kstatfs` (the whole of `fuse_statfs_out`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StatfsOut {
    /// Blocks in all.
    pub blocks: u64,
    /// Free blocks.
    pub bfree: u64,
    /// Free blocks for unprivileged users.
    pub bavail: u64,
    /// Inodes in all.
    pub files: u64,
    /// Free inodes.
    pub ffree: u64,
    /// Block size.
    pub bsize: u32,
    /// Longest name.
    pub namelen: u32,
    /// Fragment size.
    pub frsize: u32,
    /// Unused.
    pub padding: u32,
    /// Unused.
    pub spare: [u32; 6],
}

/// `struct fuse_init_in`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct InitIn {
    /// The kernel's major version.
    pub major: u32,
    /// The kernel's minor version.
    pub minor: u32,
    /// Largest readahead.
    pub max_readahead: u32,
    /// What the kernel offers, low bits.
    pub flags: u32,
    /// What the kernel offers, bits 32 and up.
    pub flags2: u32,
    /// Unused.
    pub unused: [u32; 11],
}

/// `struct fuse_init_out`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct InitOut {
    /// Our major version.
    pub major: u32,
    /// Our minor version.
    pub minor: u32,
    /// Largest readahead.
    pub max_readahead: u32,
    /// What we take, low bits.
    pub flags: u32,
    /// Most background requests at once.
    pub max_background: u16,
    /// Background requests at which the kernel counts the connection congested.
    pub congestion_threshold: u16,
    /// Largest WRITE.
    pub max_write: u32,
    /// Time granularity, nanoseconds.
    pub time_gran: u32,
    /// Most pages in one request.
    pub max_pages: u16,
    /// DAX alignment (unused).
    pub map_alignment: u16,
    /// What we take, bits 32 and up.
    pub flags2: u32,
    /// Passthrough stacking depth (unused).
    pub max_stack_depth: u32,
    /// Unused.
    pub unused: [u32; 6],
}

/// `struct fuse_dirent` without its name.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Dirent {
    /// Inode number.
    pub ino: u64,
    /// Offset of the next entry.
    pub off: u64,
    /// Length of the name that follows.
    pub namelen: u32,
    /// `DT_*` type.
    pub typ: u32,
}

/// `struct fuse_uring_ent_in_out`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct UringEntInOut {
    /// Flags (none defined).
    pub flags: u64,
    /// The id to commit the reply with.
    pub commit_id: u64,
    /// Bytes used in the payload buffer.
    pub payload_sz: u32,
    /// Unused.
    pub padding: u32,
    /// Unused.
    pub reserved: u64,
}

/// `struct fuse_uring_cmd_req`: the first 40 bytes of a FUSE uring command's 80.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct UringCmdReq {
    /// Flags (none defined).
    pub flags: u64,
    /// The request being answered (COMMIT_AND_FETCH).
    pub commit_id: u64,
    /// The queue (a possible CPU's index).
    pub qid: u16,
    /// Unused.
    pub padding: [u8; 6],
}

/// Sizes of the parts of `struct fuse_uring_req_header`: the in/out header, the opcode's
/// own header, then [`UringEntInOut`].
pub mod uring {
    /// `FUSE_URING_IN_OUT_HEADER_SZ`.
    pub const IN_OUT_HEADER: usize = 128;
    /// `FUSE_URING_OP_IN_OUT_SZ`.
    pub const OP_IN_OUT: usize = 128;
    /// The whole header.
    pub const REQ_HEADER: usize = IN_OUT_HEADER + OP_IN_OUT + 32;
    /// `FUSE_IO_URING_CMD_REGISTER`.
    pub const CMD_REGISTER: u32 = 1;
    /// `FUSE_IO_URING_CMD_COMMIT_AND_FETCH`.
    pub const CMD_COMMIT_AND_FETCH: u32 = 2;
}

/// `FUSE_DEV_IOC_CLONE`: `_IOR(229, 0, uint32_t)`.
pub const DEV_IOC_CLONE: u64 = (2 << 30) | (4 << 16) | (229 << 8);

/// The size of a request's own header (the first argument after the in header), by opcode:
/// where a classic `/dev/fuse` request splits into what FUSE-over-io_uring hands over as
/// the opcode header and the payload.
pub fn op_header_size(opcode: u32) -> usize {
    use std::mem::size_of;
    match opcode {
        op::GETATTR => 16,
        op::SETATTR => size_of::<SetattrIn>(),
        op::OPEN | op::OPENDIR => size_of::<OpenIn>(),
        op::READ | op::READDIR | op::READDIRPLUS => size_of::<ReadIn>(),
        op::WRITE => size_of::<WriteIn>(),
        op::RELEASE | op::RELEASEDIR | op::FLUSH => 24,
        op::FSYNC => 16,
        op::INIT => size_of::<InitIn>(),
        op::FALLOCATE => size_of::<FallocateIn>(),
        op::INTERRUPT | op::FORGET | op::BATCH_FORGET => 8,
        _ => 0,
    }
}

// The sizes `fuse.h` gives these structures.
const _: () = {
    use std::mem::size_of;
    assert!(size_of::<InHeader>() == 40);
    assert!(size_of::<OutHeader>() == 16);
    assert!(size_of::<Attr>() == 88);
    assert!(size_of::<EntryOut>() == 128);
    assert!(size_of::<AttrOut>() == 104);
    assert!(size_of::<SetattrIn>() == 88);
    assert!(size_of::<OpenIn>() == 8);
    assert!(size_of::<OpenOut>() == 16);
    assert!(size_of::<ReadIn>() == 40);
    assert!(size_of::<WriteIn>() == 40);
    assert!(size_of::<WriteOut>() == 8);
    assert!(size_of::<FallocateIn>() == 32);
    assert!(size_of::<StatfsOut>() == 80);
    assert!(size_of::<InitIn>() == 64);
    assert!(size_of::<InitOut>() == 64);
    assert!(size_of::<Dirent>() == 24);
    assert!(size_of::<UringEntInOut>() == 32);
    assert!(size_of::<UringCmdReq>() == 24);
};
