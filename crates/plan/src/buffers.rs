//! The job's buffer options, resolved: what write buffers hold (with fio's rules for which
//! option turns which other on or off), where the buffers live (`mem`) and how they are
//! aligned (`iomem_align`).
//!
//! fio 3.33 resolves the flags like this (each checked by hashing and compressing files it
//! wrote): `refill_buffers` as the job sets it, else on for `buffer_compress_percentage`
//! between 1 and 99 and for any `dedupe_percentage` (even 0); `scramble_buffers` as the job
//! sets it, else on unless `zero_buffers` or `buffer_pattern` is given. What each resolved
//! combination writes is in the workload crate's `buffers` module.

use crate::error::OptionError;
use iomark_engine::mem::IoMem;
use iomark_options::keys::{self, Choice, Key};
use iomark_options::JobSpec;
use iomark_workload::{BufferOptions, Dedupe, DedupeMode, Pattern};
use std::path::PathBuf;

/// The buffer options of one job.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BufferPlan {
    /// The contents, with the dedupe working set still a percentage (see
    /// [`BufferPlan::options`]).
    pub contents: BufferOptions,
    /// `dedupe_working_set_percentage`.
    pub working_set_percentage: u32,
    /// Where the buffers live (`mem`/`iomem`).
    pub mem: IoMem,
    /// `hugepage-size` in bytes.
    pub hugepage_size: u64,
    /// Buffer alignment in bytes (`iomem_align`, at least the page size).
    pub align: u64,
}

/// The buffers' alignment: `iomem_align`, at least the page size; refused unless a power
/// of two.
pub fn align(spec: &JobSpec) -> Result<u64, OptionError> {
    let page = iomark_engine::system::page_size();
    let align = spec.get(keys::IOMEM_ALIGN).unwrap_or(0);
    let buffer_align = align.max(page);
    if !buffer_align.is_power_of_two() {
        let why = format!(
            "{align} is not a power of two (fio 3.33 runs the job, but its buffers are not \
             aligned to it)"
        );
        return Err(OptionError::new(keys::IOMEM_ALIGN, why));
    }
    Ok(buffer_align)
}

impl BufferPlan {
    /// Resolves the buffer options of `spec`, aligned to `align` (see [`align`]); reads
    /// the file of a `buffer_pattern` piece written `'name'`. The message names the option
    /// at fault.
    pub fn of(spec: &JobSpec, align: u64) -> Result<BufferPlan, OptionError> {
        let pattern = match spec.given(keys::BUFFER_PATTERN) {
            Some(text) => {
                Some(Pattern::parse(&text, |name: &str| std::fs::read(name)).map_err(|e| {
                    OptionError::new(keys::BUFFER_PATTERN, format!("'{text}': {e}"))
                })?)
            }
            None => None,
        };
        let percent = |key: Key<u64>| spec.given(key).map(|n| n.min(100) as u32);
        let compress_percentage = percent(keys::BUFFER_COMPRESS_PERCENTAGE);
        let dedupe = percent(keys::DEDUPE_PERCENTAGE).map(|percentage| Dedupe {
            percentage,
            mode: match spec.get(keys::DEDUPE_MODE) {
                // The working set's size needs the job's size: see `options`.
                Some(Choice { name: "working_set", .. }) => {
                    DedupeMode::WorkingSet { buffers: 0, block: 0 }
                }
                _ => DedupeMode::Repeat,
            },
            global: spec.flag(keys::DEDUPE_GLOBAL),
        });
        let zero_buffers = spec.flag(keys::ZERO_BUFFERS);
        let refill_buffers = if spec.is_set(keys::REFILL_BUFFERS) {
            spec.flag(keys::REFILL_BUFFERS)
        } else {
            compress_percentage.is_some_and(|p| (1..100).contains(&p)) || dedupe.is_some()
        };
        let scramble_buffers = if spec.is_set(keys::SCRAMBLE_BUFFERS) {
            spec.flag(keys::SCRAMBLE_BUFFERS)
        } else {
            !zero_buffers && pattern.is_none()
        };
        let contents = BufferOptions {
            zero_buffers,
            refill_buffers,
            scramble_buffers,
            pattern,
            compress_percentage,
            compress_chunk: spec.get(keys::BUFFER_COMPRESS_CHUNK).unwrap_or(512),
            dedupe,
        };
        let working_set_percentage =
            spec.get(keys::DEDUPE_WORKING_SET_PERCENTAGE).unwrap_or(5).min(100) as u32;
        if let Some(d) = dedupe.filter(|d| matches!(d.mode, DedupeMode::WorkingSet { .. })) {
            if d.percentage > 100 - working_set_percentage {
                return Err(OptionError::new(
                    keys::DEDUPE_PERCENTAGE,
                    format!(
                        "{}: impossible to reach since {working_set_percentage} percentage of \
                         size is reserved to the dedupe working set (fio 3.33: \"impossible to \
                         reach expected dedupe percentage\")",
                        d.percentage
                    ),
                ));
            }
        }
        Ok(BufferPlan {
            contents,
            working_set_percentage,
            mem: mem(spec),
            hugepage_size: spec.get(keys::HUGEPAGE_SIZE).unwrap_or(2 << 20),
            align,
        })
    }

    /// The contents for the workload, the dedupe working set sized for a job of `size`
    /// bytes written in blocks of `block` bytes.
    pub fn options(&self, size: u64, block: u64) -> BufferOptions {
        let mut contents = self.contents;
        if let Some(d) = &mut contents.dedupe {
            if let DedupeMode::WorkingSet { buffers, block: b } = &mut d.mode {
                *buffers = Dedupe::working_set_buffers(self.working_set_percentage, size, block);
                *b = block;
            }
        }
        contents
    }
}

impl Default for BufferPlan {
    fn default() -> Self {
        BufferPlan {
            contents: BufferOptions::default(),
            working_set_percentage: 5,
            mem: IoMem::Malloc,
            hugepage_size: 2 << 20,
            align: iomark_engine::system::page_size(),
        }
    }
}

/// `mem`/`iomem`, with the file after `mmap:`, `mmapshared:` or `mmaphuge:`.
fn mem(spec: &JobSpec) -> IoMem {
    let Choice { name, arg } = spec.get(keys::MEM).unwrap_or(Choice { name: "malloc", arg: None });
    let file = arg.filter(|a| !a.is_empty()).map(PathBuf::from);
    match name {
        "mmap" => IoMem::Mmap { shared: false, huge: false, file },
        "mmapshared" => IoMem::Mmap { shared: true, huge: false, file },
        "mmaphuge" => IoMem::Mmap { shared: false, huge: true, file },
        "shm" => IoMem::Shm { huge: false },
        "shmhuge" => IoMem::Shm { huge: true },
        _ => IoMem::Malloc,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(args: &[&str]) -> Result<BufferPlan, String> {
        let spec = crate::test_spec(args).expect("valid job");
        BufferPlan::of(&spec, align(&spec).expect("aligned")).map_err(|e| e.message)
    }

    fn flags(args: &[&str]) -> (bool, bool) {
        let c = plan(args).unwrap().contents;
        (c.refill_buffers, c.scramble_buffers)
    }

    /// (refill, scramble) as fio 3.33 resolves them.
    #[test]
    fn flags_resolve_as_fio_does() {
        let cases: [(&[&str], (bool, bool)); 11] = [
            (&[], (false, true)),
            (&["zero_buffers"], (false, false)),
            (&["zero_buffers", "scramble_buffers=1"], (false, true)),
            (&["buffer_pattern=1"], (false, false)),
            (&["buffer_pattern=1", "scramble_buffers=1"], (false, true)),
            (&["buffer_compress_percentage=50"], (true, true)),
            (&["buffer_compress_percentage=0"], (false, true)),
            (&["buffer_compress_percentage=100"], (false, true)),
            (&["buffer_compress_percentage=50", "refill_buffers=0"], (false, true)),
            (&["dedupe_percentage=0"], (true, true)),
            (&["dedupe_percentage=50", "refill_buffers=0"], (false, true)),
        ];
        for (args, want) in cases {
            assert_eq!(flags(args), want, "{args:?}");
        }
    }

    #[test]
    fn options_are_read() {
        let p = plan(&[
            "buffer_pattern=0x0102\"a\"",
            "buffer_compress_chunk=1k",
            "dedupe_percentage=30",
            "dedupe_mode=working_set",
            "dedupe_working_set_percentage=20",
            "dedupe_global=1",
            "mem=mmapshared:/tmp/x",
        ])
        .unwrap();
        assert_eq!(p.contents.pattern.unwrap().as_bytes(), b"\x01\x02a");
        assert_eq!(p.contents.compress_chunk, 1024);
        let d = p.options(4 << 20, 4096).dedupe.unwrap();
        assert_eq!(d.percentage, 30);
        assert_eq!(d.mode, DedupeMode::WorkingSet { buffers: 204, block: 4096 });
        assert!(d.global);
        let file = Some(PathBuf::from("/tmp/x"));
        assert_eq!(p.mem, IoMem::Mmap { shared: true, huge: false, file });
        assert_eq!(plan(&["iomem=shmhuge"]).unwrap().mem, IoMem::Shm { huge: true });
        assert_eq!(plan(&[]).unwrap(), BufferPlan::default());
    }

    #[test]
    fn a_bad_pattern_names_the_option_and_the_value() {
        let err = plan(&["buffer_pattern=1|2"]).unwrap_err();
        assert!(err.starts_with("option 'buffer_pattern': '1|2': unexpected '|'"), "{err}");
    }
}
