//! An export from start to end: open the backing store, pick the transport, mount, answer
//! INIT, start the queues, check that the volume answers (then the export is ready), and
//! wait until it is unmounted or a signal asks it to stop; then flush the backing store
//! and add up what every queue counted.

use crate::channel::{self, Negotiated};
use crate::config::{Config, ExportError, Transport};
use crate::inject::Faults;
use crate::mount::{self, Mounted, SwitchedOn, UringSwitch};
use crate::queue::Queue;
use crate::summary::Counters;
use crate::sys;
use crate::volume::{Export, Volume};
use std::fs::{File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::sync::mpsc;
use std::sync::Arc;
use std::thread::JoinHandle;

/// What a queue thread tells the main thread.
enum Event {
    /// A uring queue registered its entries (or the errno the kernel refused them with).
    Registered(Result<(), i32>),
    /// A queue (or the `/dev/fuse` channel) ended with these counts.
    Ended(Counters),
    /// SIGINT or SIGTERM.
    Signal(i32),
}

/// Sends [`Event::Ended`] with a thread's counts when dropped, on a panic too, so that the
/// main thread never waits for a queue that died (and unmounts when one does).
struct Ends {
    tx: mpsc::Sender<Event>,
    counters: Counters,
}

impl Drop for Ends {
    fn drop(&mut self) {
        let _ = self.tx.send(Event::Ended(std::mem::take(&mut self.counters)));
    }
}

/// A running export.
pub struct Running {
    mounted: Mounted,
    volume: Arc<Volume>,
    events: mpsc::Receiver<Event>,
    threads: Vec<JoinHandle<()>>,
    /// Threads that will send [`Event::Ended`].
    running: usize,
    /// Descriptors of the connection, kept open until the queues end.
    _fds: Vec<OwnedFd>,
    /// The transport in use, for the summary.
    pub transport: &'static str,
}

/// Opens the backing store: (buffered file, `O_DIRECT` twin, size, is a block device).
fn open_backing(config: &Config) -> Result<(File, Option<File>, u64, bool), ExportError> {
    let path = &config.backing;
    let shown = path.display();
    let meta = std::fs::metadata(path)
        .map_err(|e| ExportError::Refused(format!("backing {shown}: {e}")))?;
    let block = meta.file_type().is_block_device();
    if !block && !meta.is_file() {
        return Err(ExportError::Refused(format!(
            "backing {shown} is neither a regular file nor a block device"
        )));
    }
    let open = |extra: i32| {
        let mut o = OpenOptions::new();
        o.read(true)
            .write(!config.readonly)
            .custom_flags(extra | if block { libc::O_EXCL } else { 0 });
        o.open(path)
    };
    let mut file = open(0).map_err(|e| ExportError::Refused(format!("backing {shown}: {e}")))?;
    let size = if block {
        file.seek(SeekFrom::End(0)).map_err(|e| ExportError::io("backing size", e))?
    } else {
        meta.len()
    };
    let direct = if config.direct {
        Some(open(libc::O_DIRECT).map_err(|e| {
            ExportError::Refused(format!(
                "--direct: backing {shown} cannot be opened with O_DIRECT: {e}"
            ))
        })?)
    } else {
        None
    };
    // The exclusive open of a block device is held by the first descriptor alone.
    Ok((file, direct, size, block))
}

/// Which transport to use, before mounting; notes go to `out`.
fn choose(config: &Config, out: &mut dyn Write) -> Result<(bool, Option<SwitchedOn>), ExportError> {
    let switch = UringSwitch::read();
    let switch_on =
        || SwitchedOn::new().map_err(|e| ExportError::io("switching enable_uring on", e));
    match (config.transport, switch) {
        (Transport::Dev, _) => Ok((false, None)),
        (_, UringSwitch::On) => Ok((true, None)),
        (_, UringSwitch::Off) if config.enable_uring => Ok((true, Some(switch_on()?))),
        (Transport::Uring, UringSwitch::Off) => Err(ExportError::Refused(format!(
            "--transport=uring: FUSE-over-io_uring is switched off ({} is N); {}",
            mount::URING_SWITCH,
            mount::how_to_switch_on()
        ))),
        (Transport::Uring, UringSwitch::Absent) => Err(ExportError::Refused(
            "--transport=uring: this kernel has no FUSE-over-io_uring (CONFIG_FUSE_IO_URING, Linux 6.14 \
             or later); use --transport=dev"
                .into(),
        )),
        (_, UringSwitch::Off) => {
            let _ = writeln!(
                out,
                "iomark fuse-export: transport dev (FUSE-over-io_uring is switched off: {} is N; {})",
                mount::URING_SWITCH,
                mount::how_to_switch_on()
            );
            Ok((false, None))
        }
        (_, UringSwitch::Absent) => {
            let _ = writeln!(out, "iomark fuse-export: transport dev (this kernel has no FUSE-over-io_uring)");
            Ok((false, None))
        }
    }
}

/// Starts the export of `config`; notes and the ready line go to `out`.
pub fn start(config: &Config, out: &mut dyn Write) -> Result<Running, ExportError> {
    let (file, direct, size, block) = open_backing(config)?;
    mount::check_mountpoint(&config.mountpoint).map_err(ExportError::Refused)?;
    let (want_uring, mut switched) = choose(config, out)?;
    let mut session = OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(libc::O_CLOEXEC)
        .open("/dev/fuse")
        .map_err(|e| {
            ExportError::Refused(format!("/dev/fuse: {e} (FUSE needs the fuse module and root)"))
        })?;
    let mounted =
        Mounted::new(session.as_raw_fd(), &config.backing, &config.mountpoint, config.readonly)
            .map_err(|e| {
                ExportError::io(&format!("mount on {}", config.mountpoint.display()), e)
            })?;
    let cpus = mount::possible_cpus();
    let dev_queues = config.queues.unwrap_or(1).max(1);
    let slots = config.depth * if want_uring { cpus } else { dev_queues };
    let background = slots.clamp(16, usize::from(u16::MAX)) as u16;
    let negotiated = channel::handshake(&mut session, config.max_write, want_uring, background)
        .map_err(|e| ExportError::io("FUSE INIT", e))?;
    let mut uring = negotiated.uring;
    if want_uring && !uring {
        let why = "the kernel did not offer FUSE-over-io_uring at INIT";
        if config.transport == Transport::Uring {
            return Err(ExportError::Refused(format!("--transport=uring: {why}")));
        }
        let _ = writeln!(out, "iomark fuse-export: transport dev ({why})");
    }
    let export = Export {
        readonly: config.readonly,
        direct_io: config.direct_io,
        max_io: negotiated.max_write,
    };
    let volume = Arc::new(Volume::new(file, direct, size, block, export));
    let faults = Arc::new(Faults::new(config.faults.clone()));
    let (tx, events) = mpsc::channel();
    let mut threads = Vec::new();
    let mut fds = Vec::new();
    let mut running = 0;
    if uring {
        match start_uring(&session, &negotiated, config, cpus, &volume, &faults, &tx, &mut threads)
        {
            (registered, None) => running += registered,
            (registered, Some(errno)) => {
                running += registered;
                let why = format!(
                    "the kernel refused the FUSE uring queues: {}",
                    std::io::Error::from_raw_os_error(errno)
                );
                if config.transport == Transport::Uring {
                    return Err(ExportError::Refused(format!("--transport=uring: {why}")));
                }
                let _ = writeln!(out, "iomark fuse-export: transport dev ({why})");
                uring = false;
            }
        }
    }
    if uring && config.queues.is_some() {
        let _ = writeln!(
            out,
            "iomark fuse-export: --queues applies to the dev transport; uring has one queue per possible CPU"
        );
    }
    let session_fd = session.as_raw_fd();
    if uring {
        // The classic channel stays for FORGET, INTERRUPT and what comes before the queues.
        let channel = session.try_clone().map_err(|e| ExportError::io("/dev/fuse", e))?;
        let (volume, faults, tx) = (Arc::clone(&volume), Arc::clone(&faults), tx.clone());
        threads.push(std::thread::spawn(move || {
            let mut ends = Ends { tx, counters: Counters::default() };
            ends.counters = channel::serve(channel, &volume, &faults);
        }));
        running += 1;
        fds.push(OwnedFd::from(session));
    } else {
        sys::set_nonblocking(&session, true).map_err(|e| ExportError::io("/dev/fuse", e))?;
        for q in 0..dev_queues {
            let fd = if q == 0 {
                session_fd
            } else {
                let clone = OpenOptions::new()
                    .read(true)
                    .write(true)
                    .custom_flags(libc::O_CLOEXEC | libc::O_NONBLOCK)
                    .open("/dev/fuse")
                    .map_err(|e| ExportError::io("/dev/fuse", e))?;
                let clone = OwnedFd::from(clone);
                sys::clone_fuse_fd(&clone, session_fd)
                    .map_err(|e| ExportError::io("FUSE_DEV_IOC_CLONE", e))?;
                let fd = clone.as_raw_fd();
                fds.push(clone);
                fd
            };
            let mut queue = Queue::dev(
                fd,
                config.depth,
                negotiated.max_write as usize,
                Arc::clone(&volume),
                Arc::clone(&faults),
            )
            .map_err(|e| ExportError::io("io_uring", e))?;
            let tx = tx.clone();
            threads.push(std::thread::spawn(move || {
                let mut ends = Ends { tx, counters: Counters::default() };
                if queue.enable().is_ok() {
                    queue.dev_start();
                    queue.run();
                }
                ends.counters = std::mem::take(&mut queue.counters);
            }));
            running += 1;
        }
        fds.push(OwnedFd::from(session));
    }
    // Ready when the volume answers through the export.
    let volume_path = config.mountpoint.join("volume");
    std::fs::metadata(&volume_path)
        .map_err(|e| ExportError::io(&format!("{} does not answer", volume_path.display()), e))?;
    if let Some(s) = switched.as_mut() {
        // The connection keeps FUSE-over-io_uring; the switch goes back at once.
        s.restore();
    }
    signals(&tx);
    let transport = if uring { "uring" } else { "dev" };
    let queues = if uring { cpus } else { dev_queues };
    let _ = writeln!(
        out,
        "iomark fuse-export: {} exported as {} ({size} bytes, transport {transport}, {queues} queue{} of {} requests)",
        config.backing.display(),
        volume_path.display(),
        if queues == 1 { "" } else { "s" },
        config.depth
    );
    let _ = out.flush();
    Ok(Running { mounted, volume, events, threads, running, _fds: fds, transport })
}

/// Starts one pinned queue thread per possible CPU and waits until each has registered:
/// (the queues registered, which will run until the connection ends; the errno of the
/// first refusal).
#[allow(clippy::too_many_arguments)]
fn start_uring(
    session: &File,
    negotiated: &Negotiated,
    config: &Config,
    cpus: usize,
    volume: &Arc<Volume>,
    faults: &Arc<Faults>,
    tx: &mpsc::Sender<Event>,
    threads: &mut Vec<JoinHandle<()>>,
) -> (usize, Option<i32>) {
    let payload = (negotiated.max_write as usize)
        .max(crate::abi::MIN_READ_BUFFER)
        .max(usize::from(negotiated.max_pages) * 4096);
    let (ready_tx, ready_rx) = mpsc::channel();
    for qid in 0..cpus {
        let fd = session.as_raw_fd();
        let (volume, faults, tx, ready_tx) =
            (Arc::clone(volume), Arc::clone(faults), tx.clone(), ready_tx.clone());
        let depth = config.depth;
        threads.push(std::thread::spawn(move || {
            let _ = sys::pin_to_cpu(qid);
            let mut queue = match Queue::uring(fd, qid as u16, depth, payload, volume, faults) {
                Ok(q) => q,
                Err(e) => {
                    let _ = ready_tx
                        .send(Event::Registered(Err(e.raw_os_error().unwrap_or(libc::EIO))));
                    return;
                }
            };
            let registered = match queue.enable() {
                Ok(()) => queue.uring_register(),
                Err(e) => Err(e.raw_os_error().unwrap_or(libc::EIO)),
            };
            let failed = registered.is_err();
            let _ = ready_tx.send(Event::Registered(registered));
            if !failed {
                let mut ends = Ends { tx, counters: Counters::default() };
                queue.run();
                ends.counters = std::mem::take(&mut queue.counters);
            }
        }));
    }
    drop(ready_tx);
    let (mut registered, mut error) = (0, None);
    for event in ready_rx.iter().take(cpus) {
        match event {
            Event::Registered(Err(errno)) => {
                error.get_or_insert(errno);
            }
            _ => registered += 1,
        }
    }
    (registered, error)
}

/// Forwards SIGINT and SIGTERM to the main thread as events.
fn signals(tx: &mpsc::Sender<Event>) {
    let Ok(mut signals) = signal_hook::iterator::Signals::new([libc::SIGINT, libc::SIGTERM]) else {
        return;
    };
    let tx = tx.clone();
    std::thread::spawn(move || {
        for sig in signals.forever() {
            if tx.send(Event::Signal(sig)).is_err() {
                return;
            }
        }
    });
}

impl Running {
    /// Waits until the export is unmounted (by `umount`, or by the first SIGINT or SIGTERM,
    /// after which open files are still served until closed), flushes the backing store
    /// and returns what was served. A second signal stops at once: `Err(Stopped)`.
    pub fn wait(mut self) -> Result<Counters, ExportError> {
        let mut total = Counters::default();
        let mut live = self.running;
        let mut stopping = false;
        while live > 0 {
            match self.events.recv() {
                Ok(Event::Ended(c)) => {
                    total.add(&c);
                    live -= 1;
                    // One queue ending means the connection ended: unmount (if it is not yet).
                    self.mounted.unmount();
                }
                Ok(Event::Signal(sig)) if stopping => {
                    let _ = self.volume.file.sync_data();
                    return Err(ExportError::Stopped(sig));
                }
                Ok(Event::Signal(_)) => {
                    stopping = true;
                    self.mounted.unmount();
                    println!(
                        "iomark fuse-export: unmounted {}; files still open are served until they \
                         close (signal again to stop at once)",
                        self.mounted.path().display()
                    );
                }
                Ok(Event::Registered(_)) => {}
                Err(_) => break,
            }
        }
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
        self.volume
            .file
            .sync_data()
            .map_err(|e| ExportError::io("flushing the backing store", e))?;
        Ok(total)
    }
}
