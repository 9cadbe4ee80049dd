//! Triggers over the protocol (`--trigger-file`, `--trigger-timeout`, `--trigger`,
//! `--trigger-remote` with `--client`), as fio 3.33 carries them (learnt from captures):
//! when the trigger fires the client sends each server a `VTRIGGER` holding the remote
//! command (a u16 length, then the command, no NUL; length 0 without one). The server
//! answers with the write state of every job (a u64 count, then one fio `thread_io_list`
//! each), stops its jobs as on SIGTERM and runs the command. The client writes each state
//! to `HOST-JOB-INDEX-verify.state` (fio's binary state file: version 3, size, and the
//! bit-inverted CRC-32C of the list, each a u64, then the list) and runs its own command.
//!
//! A later run with `verify_state_load` makes fio's server ask the client for such a file
//! (`SENDFILE`: the file's name, NUL-terminated, in 256 bytes, the reply echoing the
//! server's tag): the client answers with a u32 size, a u32 errno (0, or 2 when it has no
//! such file) and the file's bytes.
//!
//! A `thread_io_list` is, little-endian: u64 completions logged, u32 depth, u32 files,
//! u64 writes done (fio's `numberio`), u64 the job's index in the run (from 0, the `N` of
//! the file's name), 56 bytes of random state, the job's
//! name in 64 bytes, then depth × files completions of 16 bytes (file number, offset).

use super::messages::{c_str, u32_at, Le};

/// The offset of the job's name in a `thread_io_list`.
const NAME: usize = 88;
/// The bytes of a `thread_io_list` before its completions.
const HEAD: usize = NAME + 64;
/// The version of fio 3.33's state files.
const STATE_VERSION: u64 = 3;

/// The `VTRIGGER` a client sends: the command the server runs, if any.
pub fn command(remote: &str) -> Vec<u8> {
    let mut p = (remote.len() as u16).to_le_bytes().to_vec();
    p.extend_from_slice(remote.as_bytes());
    p
}

/// The command of a client's `VTRIGGER` (empty when none).
pub fn command_of(payload: &[u8]) -> String {
    let len = payload.get(..2).map_or(0, |b| u16::from_le_bytes([b[0], b[1]]) as usize);
    let text = payload.get(2..(2 + len).min(payload.len())).unwrap_or_default();
    c_str(text)
}

/// What a server tells of one job when a trigger fires.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobState {
    /// Its name.
    pub name: String,
    /// Its `iodepth`.
    pub depth: u32,
    /// Its number of files.
    pub files: u32,
    /// The writes it has done.
    pub writes: u64,
}

/// The server's answer to a `VTRIGGER`: the state of every job.
pub fn states(jobs: &[JobState]) -> Vec<u8> {
    let mut out = (jobs.len() as u64).to_le_bytes().to_vec();
    for (index, job) in jobs.iter().enumerate() {
        let comps = (job.depth.max(1) * job.files.max(1)) as usize;
        let mut list = Le::zeros(HEAD + 16 * comps);
        list.u32(8, job.depth.max(1));
        list.u32(12, job.files.max(1));
        list.u64(16, job.writes);
        list.u64(24, index as u64);
        list.str(NAME, 64, &job.name);
        out.extend_from_slice(&list.0);
    }
    out
}

/// The state files of a server's answer to a `VTRIGGER` (`HOST-JOB-INDEX-verify.state`
/// and its bytes), as fio 3.33's client writes them.
pub fn state_files(host: &str, payload: &[u8]) -> Vec<(String, Vec<u8>)> {
    const CRC: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISCSI);
    let count = payload.get(..8).map_or(0, |b| u64::from_le_bytes(b.try_into().unwrap_or([0; 8])));
    let mut files = Vec::new();
    let mut at = 8;
    for _ in 0..count {
        let (Some(depth), Some(nfiles)) = (u32_at(payload, at + 8), u32_at(payload, at + 12))
        else {
            break;
        };
        let comps = (depth as usize).saturating_mul(nfiles as usize).saturating_mul(16);
        let size = comps.saturating_add(HEAD);
        let Some(list) = payload.get(at..at.saturating_add(size)) else { break };
        let name = c_str(&list[NAME..HEAD]);
        let index = u64::from_le_bytes(list[24..32].try_into().unwrap_or([0; 8]));
        let mut bytes = Vec::with_capacity(24 + size);
        bytes.extend_from_slice(&STATE_VERSION.to_le_bytes());
        bytes.extend_from_slice(&(size as u64).to_le_bytes());
        bytes.extend_from_slice(&u64::from(!CRC.checksum(list)).to_le_bytes());
        bytes.extend_from_slice(list);
        files.push((format!("{host}-{name}-{index}-verify.state"), bytes));
        at += size;
    }
    files
}

/// The name of the file a server asks for (`SENDFILE`).
pub fn wanted_file(payload: &[u8]) -> String {
    c_str(&payload[..payload.len().min(256)])
}

/// Whether a client hands out `name` when a server asks for it: a verify state file in
/// its directory, nothing else (a server may ask for any path; fio's client sends any).
pub fn may_send(name: &str) -> bool {
    !name.contains('/') && name.ends_with("-verify.state") && !name.starts_with('.')
}

/// The client's answer to a `SENDFILE`: the file's bytes, or the errno why not.
pub fn file_reply(file: Result<&[u8], i32>) -> Vec<u8> {
    let (bytes, error) = match file {
        Ok(b) => (b, 0),
        Err(e) => (&[][..], e),
    };
    let mut p = (bytes.len() as u32).to_le_bytes().to_vec();
    p.extend_from_slice(&(error as u32).to_le_bytes());
    p.extend_from_slice(bytes);
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_travels_without_a_nul() {
        assert_eq!(command("touch x"), b"\x07\x00touch x");
        assert_eq!(command_of(&command("touch x")), "touch x");
        assert_eq!(command_of(&command("")), "");
        assert_eq!(command_of(&[9]), "");
    }

    #[test]
    fn state_files_are_fios() {
        let jobs = [
            JobState { name: "j".into(), depth: 1, files: 1, writes: 3_380_397 },
            JobState { name: "k".into(), depth: 4, files: 2, writes: 0 },
        ];
        let files = state_files("127.0.0.1", &states(&jobs));
        assert_eq!(files.len(), 2);
        let (name, bytes) = &files[0];
        assert_eq!(name, "127.0.0.1-j-0-verify.state");
        // fio 3.33's file for a sequential writer of depth 1 (a hexdump of one it wrote).
        assert_eq!(bytes.len(), 192);
        assert_eq!(&bytes[..16], &[3, 0, 0, 0, 0, 0, 0, 0, 0xa8, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(&bytes[32..48], &[1, 0, 0, 0, 1, 0, 0, 0, 0xad, 0x94, 0x33, 0, 0, 0, 0, 0]);
        assert_eq!(bytes[112], b'j');
        assert_eq!(files[1].0, "127.0.0.1-k-1-verify.state");
        assert_eq!(files[1].1.len(), 24 + 152 + 8 * 16);
        // The checksum: CRC-32C of the list, bit-inverted (fio's file of this list has
        // 0x32b16c41 for its own list, checked against this rule).
        let crc = u64::from_le_bytes(bytes[16..24].try_into().unwrap());
        let c = crc::Crc::<u32>::new(&crc::CRC_32_ISCSI);
        assert_eq!(crc, u64::from(!c.checksum(&bytes[24..])));
        // A cut answer gives the files that are whole.
        assert_eq!(state_files("h", &states(&jobs)[..300]).len(), 1);
    }

    #[test]
    fn a_state_file_goes_to_the_server_that_asks_as_fios_client_sends_it() {
        // fio 3.33's server asked `127.0.0.1-vs-0-verify.state` (then bytes it left
        // uninitialised); its client answered 192, 0 and the 192 bytes of the file.
        let mut ask = b"127.0.0.1-vs-0-verify.state\0".to_vec();
        ask.resize(256, 0xd6);
        let name = wanted_file(&ask);
        assert_eq!(name, "127.0.0.1-vs-0-verify.state");
        assert!(may_send(&name));
        let file = [7u8; 192];
        let reply = file_reply(Ok(&file));
        assert_eq!(&reply[..8], &[0xc0, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(reply.len(), 200);
        assert_eq!(file_reply(Err(2)), [0, 0, 0, 0, 2, 0, 0, 0]);
        for bad in ["/etc/shadow", "../x-verify.state", "job.fio", ".-verify.state"] {
            assert!(!may_send(bad), "{bad}");
        }
    }
}
