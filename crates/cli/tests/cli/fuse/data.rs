//! The export serves data faithfully: iomark's own jobs write and verify the volume on
//! every engine iomark runs, over both transports, and the summary counts what they did.

use super::{exclusive, summary_count, summary_value, transports, Export};
use crate::support::report::report_json;
use crate::support::run::{text, IOMARK};

/// A write-then-verify job on `engine` (the volume's name is added), in JSON.
fn verify_job(engine: &str) -> Vec<String> {
    let sync =
        iomark_engine::registry::REGISTRY.iter().any(|e| e.name == engine && e.completes_in_call);
    let depth = if sync || engine == "mmap" { "1" } else { "8" };
    let job = ["--output-format=json", "--name=v", "--rw=randwrite", "--bs=4k", "--size=1m"];
    let mut job: Vec<String> = job.map(String::from).to_vec();
    job.extend(["--verify=crc32c".into(), "--direct=1".into(), format!("--ioengine={engine}")]);
    job.push(format!("--iodepth={depth}"));
    job
}

#[test]
fn both_transports_serve_verified_jobs_on_every_engine() {
    let Some(_one) = exclusive() else { return };
    let engines: Vec<&str> = iomark_engine::registry::data_engines().collect();
    for transport in transports() {
        // Two dev queues: the second on a cloned /dev/fuse descriptor.
        let export = Export::start(8 << 20, transport, &["--queues=2"]);
        let noted = export.run.stdout.text().contains("--queues applies to the dev transport");
        assert_eq!(noted, transport == "uring", "{transport}: {}", export.run.stdout.text());
        for engine in &engines {
            let out = export.job(verify_job(engine));
            assert_eq!(out.status.code(), Some(0), "{transport}/{engine}: {}", text(&out.stderr));
            let job = &report_json(IOMARK, &out)["jobs"][0];
            assert_eq!(job["error"], 0, "{transport}/{engine}");
            assert_eq!(job["write"]["io_bytes"], 1 << 20, "{transport}/{engine}");
            assert_eq!(job["read"]["io_bytes"], 1 << 20, "{transport}/{engine}: verify reads");
        }
        let summary = export.finish();
        let n = engines.len() as u64;
        assert_eq!(summary_count(&summary, "write", 2), n << 20, "{summary}");
        assert!(summary_count(&summary, "read", 2) >= n << 20, "{summary}");
        assert_eq!(summary_count(&summary, "read", 4), 0, "{summary}");
        let channel = format!("over_{transport}");
        assert!(summary_value(&summary, &channel) > 0, "{transport}: {summary}");
    }
}

#[test]
fn the_volume_has_the_backing_files_size_and_contents() {
    let Some(_one) = exclusive() else { return };
    for transport in transports() {
        let dir = crate::support::run::tempdir();
        let backing = dir.path().join("backing.img");
        let data: Vec<u8> = (0..300_000u32).map(|i| (i * 7 % 251) as u8).collect();
        std::fs::write(&backing, &data).unwrap();
        let export = Export::over(dir, backing, transport, &["--page-cache"]);
        assert_eq!(std::fs::metadata(export.volume()).unwrap().len(), 300_000);
        assert_eq!(std::fs::read(export.volume()).unwrap(), data, "{transport}");
        let names: Vec<String> = std::fs::read_dir(&export.mnt)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["volume"]);
        let missing = std::fs::File::create(export.mnt.join("other"));
        assert!(missing.is_err(), "only volume exists");
        export.finish();
    }
}

#[test]
fn direct_backing_io_serves_aligned_and_unaligned_requests_alike() {
    let Some(_one) = exclusive() else { return };
    for transport in transports() {
        let export = Export::start(4 << 20, transport, &["--direct"]);
        let out = export.job(verify_job("libaio"));
        assert_eq!(out.status.code(), Some(0), "{transport}: {}", text(&out.stderr));
        // An unaligned write goes through the page cache instead of failing.
        let file =
            std::fs::OpenOptions::new().read(true).write(true).open(export.volume()).unwrap();
        std::os::unix::fs::FileExt::write_all_at(&file, b"odd", 4097).unwrap();
        let mut back = [0u8; 3];
        std::os::unix::fs::FileExt::read_exact_at(&file, &mut back, 4097).unwrap();
        assert_eq!(&back, b"odd");
        drop(file);
        let summary = export.finish();
        assert_eq!(summary_count(&summary, "write", 4), 0, "{summary}");
    }
}
