//! fio 3.33's client/server protocol, as it is on the wire (learnt from captures of
//! `fio --server` talking to `fio --client` on loopback): every message is a 24-byte
//! header and a payload, little-endian throughout.
//!
//! | bytes | field |
//! |---|---|
//! | 0..2 | protocol version (97 in fio 3.33) |
//! | 2..4 | opcode ([`Op`]) |
//! | 4..8 | flags (bit 0: more fragments follow) |
//! | 8..16 | tag: the client's, echoed in a reply (probe, ETA) |
//! | 16..20 | payload length |
//! | 20..22 | CRC-16/ARC of bytes 0..20 |
//! | 22..24 | CRC-16/ARC of the payload |
//!
//! A payload longer than 1024 bytes goes in fragments of 1024, each flagged "more" but
//! the last. [`frame`] reads and writes messages; [`messages`] lays out the small
//! payloads (probe, text, start, stop, job options, the job's options, ETA) and [`stats`]
//! the big one, a job's statistics (fio's `thread_stat`) and its group's; [`disk`] a
//! disk's statistics (`DISK_UTIL`); [`logs`] a
//! job's log file and [`trigger`] the triggers and the verify states they bring back;
//! [`server`] is `iomark --server` and [`client`] `iomark --client`.

pub mod client;
pub mod decode;
pub mod disk;
pub mod frame;
pub mod logs;
pub mod messages;
pub mod server;
pub mod stats;
pub mod trigger;

/// The protocol version of fio 3.33.
pub const VERSION: u16 = 97;

/// fio's default port.
pub const DEFAULT_PORT: u16 = 8765;

/// The opcodes iomark knows, by fio's numbering.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u16)]
pub enum Op {
    /// Ends the connection (either side).
    Quit = 1,
    /// Ends the server (client to server).
    Exit = 2,
    /// A job file (client to server).
    Job = 3,
    /// A job given as command-line arguments (client to server).
    JobLine = 4,
    /// Output text (server to client).
    Text = 5,
    /// One job's statistics (server to client).
    Ts = 6,
    /// One group's statistics (server to client).
    Gs = 7,
    /// A request for the progress figures (client to server).
    SendEta = 8,
    /// The progress figures (server to client).
    Eta = 9,
    /// Who are you (client), and the answer (server).
    Probe = 10,
    /// How many jobs will run (server to client).
    Start = 11,
    /// The run ended (server to client).
    Stop = 12,
    /// Disk statistics (server to client).
    DiskUtil = 13,
    /// The jobs started (server to client).
    ServerStart = 14,
    /// A job's options (server to client).
    AddJob = 15,
    /// Run the jobs sent (client to server).
    Run = 16,
    /// A log file (server to client).
    IoLog = 17,
    /// An option changed (client to server).
    UpdateJob = 18,
    /// Read a job file on the server's side (client to server).
    LoadFile = 19,
    /// A trigger: run a command (client to server).
    VTrigger = 20,
    /// A file asked for (server to client).
    SendFile = 21,
    /// One option of a job, for the JSON report (server to client).
    JobOpt = 22,
}

impl Op {
    /// The opcode numbered `n`, if iomark knows it.
    pub fn from_u16(n: u16) -> Option<Op> {
        use Op::*;
        const ALL: [Op; 22] = [
            Quit,
            Exit,
            Job,
            JobLine,
            Text,
            Ts,
            Gs,
            SendEta,
            Eta,
            Probe,
            Start,
            Stop,
            DiskUtil,
            ServerStart,
            AddJob,
            Run,
            IoLog,
            UpdateJob,
            LoadFile,
            VTrigger,
            SendFile,
            JobOpt,
        ];
        ALL.into_iter().find(|op| *op as u16 == n)
    }
}

/// Why a message could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum ProtoError {
    /// The connection failed or closed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The peer speaks another version of the protocol.
    #[error(
        "the peer speaks fio's protocol version {theirs}, iomark speaks version {ours} \
         (fio-3.33)"
    )]
    Version {
        /// The peer's version.
        theirs: u16,
        /// iomark's, [`VERSION`].
        ours: u16,
    },
    /// A header's or a payload's checksum was wrong.
    #[error("a message's {what} checksum is wrong")]
    Checksum {
        /// `header` or `payload`.
        what: &'static str,
    },
    /// A message was larger than iomark accepts.
    #[error("a message of {bytes} bytes is larger than the {limit} accepted")]
    TooLarge {
        /// Its size, so far.
        bytes: u64,
        /// The limit.
        limit: u64,
    },
    /// An opcode iomark does not know.
    #[error("unknown opcode {0}")]
    UnknownOp(u16),
    /// A payload too short for its opcode.
    #[error("a {op:?} message of {len} bytes is too short")]
    Short {
        /// The opcode.
        op: Op,
        /// Its payload's length.
        len: usize,
    },
}
